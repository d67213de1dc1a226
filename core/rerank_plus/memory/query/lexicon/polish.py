"""Polish cues (see :mod:`rerank_plus.memory.query.lexicon`).

Nouns and verbs take case and person endings, so most entries are stems ending in ``\\w*``;
scope nouns that other languages share a stem with list their endings ("grup(?:a|y|ie...)":
every language's cues are tried on every query, and ``grup\\w*`` took German "Gruppe" out of
a question), as do weekdays that are also words ("czwarty", fourth; "środowisko",
environment).
Folding drops the accents but keeps "ł", which users also type as "l": both are written.
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: The endings a year may take after a date ("2023 r.", "2023 roku").
_YEAR = r"(?: <YEAR>(?: r\.?| roku)?)?"

POLISH = Lexicon(
    summary=(
        r"podsumow\w*",
        r"podsumuj\w*",
        r"stre(?:sc|szcz)\w*",
        r"zreasumuj\w*",
        r"reasumuj\w*",
        r"w skr[oó]cie",
        r"skr[oó]t\w*",
        r"kr[oó]tk\w*",
        r"pokr[oó]tce",
        r"przegl[aą]d\w*",
        r"wymie[nń]\w*",
        r"opisz\w*",
        r"o czym",
        r"czego dotycz\w*",
    ),
    breadth=(
        r"(?:najważniejsz|gł[oó]wn|glown|kluczow|istotn)\w* (?:punkt|temat|wątk|watk|kwesti"
        r"|wniosk|decyzj|ustale|etap|krok|myśl|mysl|spraw|ide)\w*",
        r"og[oó]ln\w* (?:obraz|zarys)\w*",
        r"og[oó]lnie",
        r"w sumie",
        r"od pocz[aą]tku do ko[nń]ca",
        r"krok po kroku",
        r"chronologi\w*",
        r"o[sś] czasu",
        r"(?:kolejn|następn|nastepn|dalsz)\w* (?:krok|etap)\w*",
        r"zadania do (?:wykonania|zrobienia)",
    ),
    scope=(
        r"spotka\w*",
        r"zebra[nń]\w*",
        r"narad\w*",
        r"dyskusj\w*",
        r"dyskutow\w*",
        r"rozm[oó]w\w*",
        r"rozmaw\w*",
        r"om[oó]wi\w*",
        r"omawia\w*",
        r"czat\w*",
        r"sesj\w*",
        r"zesp[oó][łl]\w*",
        r"grup(?:a|y|ie|ę|e|ą|om|ach|ami)?",
        r"ca[łl](?:y|a|e|ego|ej|ym|ą|o[sś][cć]\w*)",
        r"wszystk\w*",
        r"temat(?:y|u|ów|ow|em|ach|ami|om|yk\w*)?",
        r"w[aą]t(?:ek|k\w*)",
        r"punkt(?:y|u|ów|ow|em|ach|ami|om)?",
        r"kwesti\w*",
        r"decyzj\w*",
        r"postanow\w*",
        r"zdecydow\w*",
        r"ustal\w*",
        r"wniosk\w*",
        r"wynik\w*",
        r"rezultat\w*",
        r"agend\w*",
        r"najważniejsz\w*",
        r"gł[oó]wn\w*",
        r"glown\w*",
        r"kluczow\w*",
        r"istotn\w*",
        r"powiedz\w*",
        r"powiedzia\w*",
        r"m[oó]wi\w*",
        r"m[oó]wion\w*",
        r"wspomn\w*",
        r"wspomin\w*",
        r"porusz\w*",
        r"(?:dzia|sta)[łl]o si[eę]",
        r"si[eę] (?:dzia|sta)[łl]o",
        r"zosta\w*",
        r"zapad\w*",
        r"mow[aeyi]",  # "była mowa o": it was talked about
        r"wydarzy\w*",
        r"podj[eę]\w*",
        r"osi[aą]gni[eę]\w*",
        r"uzgodni\w*",
        r"dotycz\w*",
        r"projekt(?:u|y|em|ów|ow|ach|ami|cie|om)?",
        r"warsztat\w*",
        r"seminari\w*",
        r"wywiad\w*",
        r"notatk\w*",
        r"protok[oó][łl](?:u|y|ów|ow|em|e)?",
        r"uczestni\w*",
        r"ludzi\w*",
        r"prosz[eę]",
        r"dzi[eę]kuj[eę]",
        r"dzi[eę]ki",
        r"daj\w*",
        r"zr[oó]b\w*",
        r"opowiedz\w*",
    ),
    future=(r"nast[eę]pn\w*", r"kolejn\w*", r"przysz[łl]\w*", r"nadchodz[aą]c\w*"),
    recency=(
        r"co nowego",
        r"co s[łl]ycha[cć]",
        r"(?:jakie[sś]? )?nowo[sś]ci",
        r"najnowsz\w*",
        r"ostatnio",
        r"niedawn\w*",
        r"w ostatnim czasie",
        r"ostatni\w* (?:spotka|zebra|rozm[oó]w|narad|wiadomo|aktualizacj)\w*",
        r"co si[eę] zmieni[łl]o",
        r"co (?:mnie )?(?:omin[eę][łl]o|przegapi[łl]\w*)",
    ),
    entity_leads=(
        r"gdzie (?:(?:my|oni|wy) )?(?:rozmaw|m[oó]wi|dyskut|omawia|om[oó]wi|wspomin|wspomn"
        r"|porusz)\w* (?:(?:si[eę] )?(?:o|na temat) )?",
        r"gdzie (?:jest|by[łl]a) mowa o ",
        r"(?:wszystkie )?wzmianki (?:o )?",
        r"wszystko (?:o|na temat) ",
        r"co wiemy (?:o|na temat) ",
    ),
    name_leads=(r"kim (?:jest|by[łl]a?) ", r"kto to (?:jest )?"),
    since=(r"od", r"odk[aą]d", r"pocz[aą]wszy od"),
    range_opening=(r"od", r"między", r"pomiędzy"),
    range_inner=(r"do", r"a"),
    numbers=_frozen(
        {
            "jeden": 1,
            "jedna": 1,
            "jedno": 1,
            "jednego": 1,
            "jednej": 1,
            "dwa": 2,
            "dwie": 2,
            "dwóch": 2,
            "trzy": 3,
            "trzech": 3,
            "cztery": 4,
            "czterech": 4,
            "pięć": 5,
            "pięciu": 5,
            "sześć": 6,
            "sześciu": 6,
            "siedem": 7,
            "siedmiu": 7,
            "osiem": 8,
            "ośmiu": 8,
            "dziewięć": 9,
            "dziewięciu": 9,
            "dziesięć": 10,
            "dziesięciu": 10,
            "dwanaście": 12,
            "dwudziestu": 20,
            "dwadzieścia": 20,
            "trzydzieści": 30,
            "kilka": 3,
            "kilku": 3,
            "parę": 2,
        }
    ),
    units=_frozen(
        {
            "minute": r"minut\w*",
            "hour": r"godzin\w*",
            "day": r"dzie[nń]|dni(?:a|ach|ami)?|dob(?:a|y|ę)",
            "week": r"tydzie[nń]|tygodni\w*",
            "month": r"miesi[aą]c\w*",
            "year": r"rok(?:u|iem)?|lat(?:a|ach)?",
        }
    ),
    ago=(r"(?:<N> )?<UNIT> temu",),
    last_n=(
        r"(?:w|przez|w ci[aą]gu|na przestrzeni) (?:ostatni|minion|ubieg[łl]|poprzedni)\w* "
        r"(?:<N> )?<UNIT>",
        r"(?:ostatni|minion)\w* <N> <UNIT>",
    ),
    days=_frozen(
        {
            0: r"dzisiaj|dzi[sś]|dzisiejsz\w*(?: dni\w*)?",
            -1: r"wczoraj|wczorajsz\w*(?: dni\w*)?",
            -2: r"przedwczoraj",
        }
    ),
    parts=_frozen(
        {
            "morning": r"rano|ranem|poran\w*|przed po[łl]udniem",
            "afternoon": r"po po[łl]udniu|popo[łl]udni\w*",
            "evening": r"wiecz[oó]r\w*",
            "night": r"noc\w*",
        }
    ),
    day_parts=(
        (r"dzisiejszego ranka|tego ranka", 0, "morning"),
        (r"(?:ubieg[łl]ej|zesz[łl]ej|ostatniej) nocy", -1, "night"),
    ),
    part_joiner=r" (?:w )?",
    weekdays=(
        r"poniedzia[łl]\w*",
        r"wtor(?:ek|ku|kowi|ki)",
        r"[sś]rod(?:a|ę|y|zie)",  # "środowisko" is environment
        r"czwart(?:ek|ku|kowi|ki)",  # "czwarty" is fourth
        r"pi[aą]t(?:ek|ku|kowi|ki)",  # "piąty" is fifth
        r"sobot\w*",
        r"niedziel\w*",
    ),
    previous_weekday=(r"(?:w )?(?:ostatni|ubieg[łl]|zesz[łl]|poprzedni)\w* <WEEKDAY>",),
    periods=_frozen(
        {"week": r"tydzie[nń]|tygodni\w*", "month": r"miesi[aą]c\w*", "year": r"rok(?:u|iem)?"}
    ),
    previous_period=(r"(?:w )?(?:zesz[łl]|ubieg[łl]|poprzedni|przesz[łl])\w* <PERIOD>",),
    current_period=(r"(?:w )?(?:t(?:ym|en|ego)|bie[zż][aą]c\w*|obecn\w*) <PERIOD>",),
    clock_leads=(r"o", r"o godz(?:inie|\.)?", r"oko[łl]o(?: godz(?:iny|\.)?)?", r"godz\."),
    months=(
        r"stycz\w*|sty",
        r"lut(?:y|ego|ym)|lut",
        r"mar(?:zec|ca|cu)|mar",
        r"kwie(?:cie[nń]|tnia|tniu)|kwi",
        r"maj(?:a|u)?",
        r"czerw(?:iec|ca|cu)|cze",
        r"lip(?:iec|ca|cu)|lip",
        r"sierp(?:ie[nń]|nia|niu)",  # no "sie": "się" folds to it
        r"wrze(?:[sś]ie[nń]|[sś]nia|[sś]niu)|wrz",
        r"pa[zź]dziernik\w*|pa[zź]",
        r"listopad\w*|lis",
        r"grud(?:zie[nń]|nia|niu)|gru",
    ),
    month_alone=(
        r"(?:w|od|do|na pocz[aą]tku|pod koniec|w po[łl]owie) <MONTH>" + _YEAR,
        r"<MONTH> <YEAR>(?: r\.?| roku)?",
    ),
    day_dates=(r"(?:dnia |od )?<DAY>\.? <MONTH>" + _YEAR,),
)
