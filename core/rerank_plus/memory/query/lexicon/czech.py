"""Czech cues (see :mod:`rerank_plus.memory.query.lexicon`).

Nouns and verbs take case and person endings, so entries are stems ending in ``\\w*`` where
no other language shares the stem, and list their endings where one does (every language's
cues are tried on every query): "rekl\\w*" (said) took German "Reklame", "bod\\w*" (point)
Dutch "bodem", and "projekt" alone is German, "cela" French, "cele" Polish (goals), "tema"
Spanish. Polish is the nearest: "porada" (meeting) is Polish advice and "napis" a Polish
sign, so only the forms Polish does not share are cues. Folding drops the accents
("schůzka" reads "schuzka", "řekl" "rekl"), as users who type without them write it.
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: Talking about something, in the forms a question gives it ("mluvili", "probírá").
_TALK = (
    r"(?:mluv|hovo[rř]|bav|diskut|prob[ií]r|probral|zmi[nň]|zm[ií]n|projedn|[rř]e[sš]il)\w*"
    r"|[rř]e[sš][ií](?:me|te)?"
)

#: The words that may lead a clock time ("v 15 hodin", "kolem 9:30").
_AT = r"(?:v|ve|kolem|okolo|od|do)"

CZECH = Lexicon(
    summary=(
        r"shr[nň]\w*",
        r"sumarizuj\w*",
        r"sumarizac(?:e|i|í)",  # Portuguese "sumarização"
        r"(?:z)?rekapituluj(?:te)?",
        r"rekapitulac(?:e|i|í)",
        r"stru[cč]n\w*",
        r"kr[aá]tce",
        r"kr[aá]tk\w* (?:shrnut|p[rř]ehled|souhrn|rekapitulac)\w*",  # Polish "kratka"
        r"ve zkratce",
        r"v kostce",
        r"v kr[aá]tkosti",
        r"p[rř]ehled\w*",
        r"vyjmenuj\w*",
        r"vypi[sš](?:te)?",
        r"o [cč]em",
        r"[cč]eho se t[yý]k\w*",
    ),
    breadth=(
        r"(?:nejd[uů]le[zž]it[eě]j[sš]|hlavn|kl[ií][cč]ov|podstatn|z[aá]sadn)\w* (?:bod|t[eé]ma"
        r"|z[aá]v[eě]r|rozhodnut|my[sš]lenk|krok|ot[aá]z|v[yý]sled|probl[eé]m|informac"
        r"|poznatk|n[aá]pad|moment|ud[aá]lost|v[eě]c)\w*",
        r"celkov\w* (?:p[rř]ehled|obraz|shrnut[ií])\w*",
        r"celkov[eě]",
        r"celkem vzato",
        r"od za[cč][aá]tku do konce",
        r"krok za krokem",
        r"chronologick\w*",
        r"[cč]asov\w* os(?:a|u|e|y)",
        r"(?:dal[sš][ií]|n[aá]sleduj[ií]c[ií]) (?:krok|f[aá]z)\w*",
        r"ak[cč]n[ií] body",
        r"[uú]koly",
    ),
    scope=(
        r"sch[uů]zk\w*",
        r"sch[uů]zek",
        r"sch[uů]zc(?:e|i)",
        r"sch[uů]z(?:e|i|í|ích|ím)",
        # Polish "porada" is advice: only the forms and phrases Polish does not share
        r"porad(?:u|ou|ám)",
        r"(?:na|při) porad[eě]",
        r"z porady",
        r"jedn[aá]n[ií](?:ch|m)?",
        r"setk[aá]n[ií](?:ch|m)?",
        r"disku[sz](?:e|i|í|ích|ím|emi)",
        r"diskutov\w*",
        r"rozhovor\w*",
        r"hovo[rř]\w*",
        r"mluv\w*",
        r"bavil\w*",
        r"bav[ií]me",
        r"prob[ií]r\w*",
        r"probral\w*",
        r"probran\w*",
        r"projedn\w*",
        r"[rř]e[sš]il(?:i|o|a|y)?",
        r"[rř]e[sš][ií]me",  # not "řeší": Italian "resi"
        r"zm[ií]n\w*",
        r"zmi[nň]\w*",
        r"[rř]ekl(?:i|a|o|y)?",  # "rekl\\w*" is German "Reklame"
        r"[rř]ekn(?:i|ěte|ou|u|eme|e)",
        r"[rř][ií]kal(?:i|a|o|y)?",
        r"[rř]e[cč]eno",
        r"zazn\w*",
        r"prob[eě]hl\w*",
        r"se d[eě]lo",
        r"stal(?:o|a|y)",
        r"t[yý]k(?:al\w*|á|aj[ií]\w*)",
        r"t[yý]m(?:u|em|y|ech|ům)",
        r"skupin\w*",
        r"jak(?:ý|á|ou|ého|ých|ým|ými|ém)",
        # "jaké" before what it asks about: alone it is English "Jake"
        r"jak[eé](?= (?:byl|jsou|je|bud|m[aá]|padl|nov|bod|t[eé]ma|rozhodnut|z[aá]v[eě]r"
        r"|v[yý]sled|ot[aá]z|krok|[uú]kol|probl[eé]m|informac|zpr[aá]v|n[aá]vrh|pl[aá]n|dohod"
        r"|n[aá]zor|t[yý]m|[cč]innost|akc))",
        r"cel(?:ý|ou|ého|ých|ým)",
        r"cel(?:á|é|ém) (?:sch[uů]z|porad|jedn[aá]n|setk[aá]n|disku|rozhovor|t[eé]ma|skupin"
        r"|projekt)\w*",
        r"v[sš]echn\w*",
        r"v[sš]e",
        r"v[sš]ichni",
        r"t[eé]mat(?:a|u|em|ech|ům|y)?",
        r"bod(?:u|ů|ech|ům)",  # "bod" and "bodem" are Dutch, "body" English
        r"ot[aá]zk\w*",
        r"ot[aá]zek",
        r"rozhod\w*",
        r"z[aá]v[eě]r\w*",
        r"v[yý]sled\w*",
        r"dohod(?:a|y|u|ou|ě|e|l|la|li|lo|ly|nut\w*|nout)",
        r"domluv\w*",
        r"usnesen\w*",
        r"p[rř]ijat\w*",
        r"p[rř]ijal\w*",
        r"shodl\w*",
        r"obsah\w*",
        r"hlavn\w*",
        r"nejd[uů]le[zž]it[eě]j[sš]\w*",
        r"d[uů]le[zž]it\w*",
        r"kl[ií][cč]ov\w*",
        r"podstatn\w*",
        r"projekt(?:u|y|em|ech|ů|ům)",
        r"[uú][cč]astn\w*",
        r"z[aá]pis(?:u|y|em|ech|ů)?",  # not the Polish verb "zapisać"
        r"pozn[aá]mk\w*",
        r"pros[ií]m",
        r"d[eě]kuj(?:i|u|eme|ete)",
        r"d[ií]ky",
        r"ud[eě]lej(?:te)?",
        r"napi[sš]te",
        r"napi[sš] mi",  # "napis" is Polish (a sign)
        r"dej(?:te)? mi",
        r"mi d[aá]t",  # "dát" alone is Dutch "dat"
        r"m[uů][zž]e[sš]",
        r"m[uů][zž]ete",
    ),
    future=(
        r"p[rř][ií][sš]t(?:í|ího|ím|ích|ími)",  # "pristine"
        r"n[aá]sleduj[ií]c\w*",
        r"nadch[aá]zej[ií]c\w*",
        r"budouc\w*",
        r"pl[aá]novan\w*",
    ),
    recency=(
        r"(?:co|n[eě]co) (?:je )?nov[eé]ho",
        r"novink\w*",
        r"nejnov[eě]j[sš]\w*",
        r"posledn[ií] dobou",
        r"v posledn[ií] dob[eě]",
        r"ned[aá]vn\w*",
        r"posledn\w* (?:sch[uů]z|porad|jedn[aá]n|setk[aá]n|zpr[aá]v|aktualizac|disku"
        r"|rozhovor)\w*",
        r"co se (?:zm[eě]nil\w*|d[eě]je)",
        r"co (?:jsem )?(?:zme[sš]kal|prop[aá]sl|pro[sš]vihl)\w*",
    ),
    entity_leads=(
        r"kde (?:(?:jsme|jste|se|oni|to) )?(?:(?:jsme|se) )?(?:" + _TALK + r") (?:(?:jsme|se) )?"
        r"(?:(?:o|na t[eé]ma|ohledn[eě]) )?",
        r"kde (?:je|byla?|padl[ao]?) (?:zm[ií]nka|[rř]e[cč]) o ",
        r"(?:v[sš]echny )?zm[ií]nky o ",
        r"v[sš]e(?:chno)? o ",
        r"co v[ií]me o ",
    ),
    name_leads=(r"kdo (?:je|byl[ao]?|jsou|to je) ",),
    since=(r"od", r"ode", r"po[cč][ií]naje(?: od)?"),
    range_opening=(r"od", r"ode", r"mezi"),
    range_inner=(r"do", r"a"),
    numbers=_frozen(
        {
            "jeden": 1,
            "jedna": 1,
            "jedno": 1,
            "jednu": 1,
            "jednoho": 1,
            "jedním": 1,
            "dva": 2,
            "dvě": 2,
            "dvou": 2,
            "dvěma": 2,
            "tři": 3,
            "tří": 3,
            "třech": 3,
            "třemi": 3,
            "čtyři": 4,
            "čtyř": 4,
            "čtyřech": 4,
            "čtyřmi": 4,
            "pět": 5,
            "pěti": 5,
            "šest": 6,
            "šesti": 6,
            "sedm": 7,
            "sedmi": 7,
            "osm": 8,
            "osmi": 8,
            "devět": 9,
            "devíti": 9,
            "deset": 10,
            "deseti": 10,
            "dvanáct": 12,
            "dvanácti": 12,
            "dvacet": 20,
            "dvaceti": 20,
            "třicet": 30,
            "třiceti": 30,
            "pár": 2,
            "několik": 3,
            "několika": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"minut(?:a|u|y|ou|ami|ách)?",
            "hour": r"hodin(?:a|u|y|ou|ami|ách|ě)?",
            # "den" and "let" only where Czech puts them: German "den", English "let" follow
            # numbers too ("seit 2020 den Titel"); alone, they are what reading a unit sees
            "day": r"dn(?:y|i|í|ů|u|e|em|ech|ích|ům|ami)|(?<=posledn[ií]\s)den"
            r"|(?<=uplynul[yý]\s)den|(?<!.)den(?!.)",
            "week": r"t[yý]den|t[yý]dn(?:e|u|y|em|ech|ů|ům|ech)",
            "month": r"m[eě]s[ií]c\w*",
            "year": r"rok(?:u|em|y|ů|a|ech)?|lety|letech|(?<=ch\s\d\s)let|(?<=ch\s\d\d\s)let"
            r"|(?<!.)let(?!.)",
        }
    ),
    ago=(r"p[rř]ed (?:<N> )?<UNIT>",),
    last_n=(
        r"(?:za|b[eě]hem|v pr[uů]b[eě]hu|v|ve|na) (?:posledn|uplynul)\w* (?:<N> )?<UNIT>",
        r"(?:posledn|uplynul)\w* <N> <UNIT>",
    ),
    days=_frozen(
        {
            0: r"dnes|dneska|dne[sš]n\w*(?: den| dne)?",
            -1: r"v[cč]era|v[cč]erej[sš]\w*(?: den| dne)?",
            -2: r"p[rř]edev[cč][ií]rem|p[rř]edv[cč]erem",
        }
    ),
    parts=_frozen(
        {
            "morning": r"r[aá]no|r[aá]na|r[aá]nu|dopoledn\w*",
            "afternoon": r"odpoledn\w*",
            "evening": r"ve[cč]er\w*",
            "night": r"noc\w*",
        }
    ),
    day_parts=((r"minul(?:ou|é) noci?", -1, "night"),),
    part_joiner=r" (?:v |ve )?",
    weekdays=(
        r"pond[eě]l\w*",
        r"[uú]ter[yý]|[uú]tern\w*",  # "uterus"
        r"st[rř]ed(?:a|u|y|ě|e|ou)",  # "střed" is the centre, "středně" medium
        r"[cč]tvrt(?:ek|ku|kem)",  # "čtvrt" is a quarter
        r"p[aá]t(?:ek|ku|kem)",
        r"sobot(?:a|u|y|ě|e|ou)",
        r"ned[eě]l(?:e|i|í)",
    ),
    previous_weekday=(r"(?:(?:v|ve|od) )?(?:minul|posledn)\w* <WEEKDAY>",),
    periods=_frozen(
        {
            "week": r"t[yý]den|t[yý]dn(?:e|u|em)",
            "month": r"m[eě]s[ií]c(?:e|i|em)?",
            "year": r"rok(?:u|em)?",
        }
    ),
    previous_period=(r"(?:(?:v|ve|za|b[eě]hem|od) )?(?:minul|p[rř]edchoz)\w* <PERIOD>",),
    current_period=(
        r"(?:(?:v|ve|za|b[eě]hem|od) )?(?:tento|tenhle|tomto|tomhle|tuto|tohoto|tohohle"
        r"|sou[cč]asn\w*|leto[sš]n\w*) <PERIOD>",
    ),
    clock_leads=(r"v", r"ve", r"kolem", r"okolo"),
    clock_times=(
        _AT + r" <HOUR>(?:[:.]<MINUTE>)? (?:hodin[uy]?|hod\.?)(?: r[aá]no| dopoledne)?",
        _AT + r" <HOUR>\.<MINUTE>(?<=\.\d\d)",  # "v 15.30", not the date "od 3.5."
        r"(?:" + _AT + r" )?<HOUR>(?:[:.]<MINUTE>)?(?: (?:hodin[uy]?|hod\.?))? "
        r"(?:odpoledne|ve[cč]er)<PM>",
    ),
    months=(
        r"leden|ledn(?:a|u|em)",
        r"[uú]nor(?:a|u|em)?",
        r"b[rř]ez(?:en|na|nu|nem)",
        r"dub(?:en|na|nu|nem)",
        r"kv[eě]t(?:en|na|nu|nem)",
        r"[cč]erv(?:en|na|nu|nem)",
        r"[cč]erven(?:ec|ce|ci|cem)",
        r"srp(?:en|na|nu|nem)",
        r"z[aá][rř][ií]",
        r"[rř][ií]j(?:en|na|nu|nem)",
        r"listopad(?:u|em)?",
        r"prosin(?:ec|ce|ci|cem)",
    ),
    month_alone=(
        r"(?:v|ve|od|do|b[eě]hem|za[cč][aá]tkem|koncem|v polovin[eě]|na za[cč][aá]tku"
        r"|na konci) <MONTH>(?: <YEAR>)?",
        r"<MONTH> <YEAR>",
    ),
    day_dates=(r"(?:(?:dne|od|do) )?<DAY>\.? ?<MONTH>(?: <YEAR>)?",),
)
