"""The words that say what a query asks for, one small table per language: linguistic data.

Every entry is a lowercase regular-expression fragment matched as whole words in the folded
query (:mod:`.folding`: no accents, word-inner apostrophes and hyphens as spaces, so write
"aujourd hui" and "parle t on"; accents may be kept, they are folded too). Inflection is
covered by stems ("summar\\w*", "résum\\w*") or listed forms. Placeholders in templates:
``<N>`` a number (digits or a number word of the language), ``<UNIT>`` a unit of time,
``<PERIOD>`` week, month or year, ``<WEEKDAY>`` a day name, ``<DAY>`` and ``<PART>`` a day and
a part of it ("yesterday" + "morning").

The tables are the common ways each language asks these things, written from the languages'
usage, not from any evaluation set. Adding a language is adding one :class:`Lexicon`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Lexicon:
    """The cues of one language (see the module docstring for the fragment syntax)."""

    #: Asking for a summary: a synthesis when nothing but scope words is left around it.
    summary: tuple[str, ...]
    #: Asking for breadth across the whole memory ("main steps", "big picture"): synthesis.
    breadth: tuple[str, ...]
    #: Words that do not narrow a question (the meeting, the discussion, the team, topics...).
    scope: tuple[str, ...]
    #: Asking for what is recent without a date ("what's new", "latest"): implicit recency.
    recency: tuple[str, ...]
    #: Words after which the entity a query is about follows ("where do we talk about").
    entity_leads: tuple[str, ...]
    #: "since": makes the following time the start of an open window.
    since: tuple[str, ...]
    numbers: Mapping[str, int]
    #: unit ("minute", "hour", "day", "week", "month", "year") -> its words.
    units: Mapping[str, str]
    #: "3 days ago": templates with <N> and <UNIT>.
    ago: tuple[str, ...]
    #: "in the last 2 hours": templates with <N> (optional where the template says so) and <UNIT>.
    last_n: tuple[str, ...]
    #: day offset (0 today, -1 yesterday, -2 the day before) -> its words.
    days: Mapping[int, str]
    #: part of the day ("morning", "afternoon", "evening", "night") -> its words.
    parts: Mapping[str, str]
    #: single expressions of a day and a part: (words, day offset, part) ("this morning").
    day_parts: tuple[tuple[str, int, str], ...]
    #: what may stand between a <DAY> and a <PART> ("ayer por la mañana").
    part_joiner: str
    #: Monday first.
    weekdays: tuple[str, str, str, str, str, str, str]
    #: a weekday strictly before today: templates with <WEEKDAY>.
    previous_weekday: tuple[str, ...]
    #: period ("week", "month", "year") -> its words.
    periods: Mapping[str, str]
    #: the period before the current one ("last week"): templates with <PERIOD>.
    previous_period: tuple[str, ...]
    #: the current period ("this week"): templates with <PERIOD>.
    current_period: tuple[str, ...]
    #: words that may lead a clock time ("at", "à", "um").
    clock_leads: tuple[str, ...] = field(default=())


def _frozen(mapping: dict) -> Mapping:
    return MappingProxyType(mapping)


ENGLISH = Lexicon(
    summary=(
        r"summar\w*",
        r"sum(?:s|med|ming)? up",
        r"recap\w*",
        r"overview",
        r"outline",
        r"rundown",
        r"digest",
        r"gist",
        r"tl ?dr",
        r"brief me",
        r"debrief\w*",
        r"about(?=[\s?.!]*$)",
    ),
    breadth=(
        r"main (?:steps?|points?|topics?|themes?|ideas?|takeaways?|events?|outcomes?|stages?)",
        r"key (?:points?|topics?|themes?|takeaways?|moments?|events?|decisions?|steps?)",
        r"big picture",
        r"overall",
        r"high level",
        r"timeline",
        r"chronolog\w*",
        r"highlights?",
        r"takeaways?",
        r"in a nutshell",
        r"from start to finish",
        r"from beginning to end",
        r"step by step",
    ),
    scope=(
        r"meetings?",
        r"discuss\w*",
        r"conversations?",
        r"chats?",
        r"calls?",
        r"sessions?",
        r"teams?",
        r"groups?",
        r"whole",
        r"entire",
        r"overall",
        r"general",
        r"all",
        r"everything",
        r"everyone",
        r"topics?",
        r"subjects?",
        r"themes?",
        r"points?",
        r"decisions?",
        r"decid\w*",
        r"resolutions?",
        r"resolved?",
        r"conclusions?",
        r"outcomes?",
        r"results?",
        r"agenda",
        r"items?",
        r"main",
        r"key",
        r"final",
        r"major",
        r"important",
        r"summary",
        r"focus\w*",
        r"talk\w*",
        r"said",
        r"says?",
        r"mention\w*",
        r"covered",
        r"cover",
        r"address\w*",
        r"happen\w*",
        r"going on",
        r"went on",
        r"agree\w*",
        r"made",
        r"reached",
        r"taken",
        r"things?",
        r"stuff",
        r"participants?",
        r"people",
        r"transcripts?",
        r"minutes",
        r"notes",
        r"record",
    ),
    recency=(
        r"what s new",
        r"what is new",
        r"anything new",
        r"something new",
        r"news",
        r"latest",
        r"newest",
        r"most recent\w*",
        r"recent\w*",
        r"lately",
        r"any updates?",
        r"(?:what|anything) (?:has |have )?changed",
        r"catch me up",
        r"last (?:messages?|updates?|things? said)",
    ),
    entity_leads=(
        r"where (?:do|did|does|have|has|were|was|are|is) (?:we|they|you|people|it|someone|anyone) "
        r"(?:talk\w*|speak\w*|spoke|discuss\w*|mention\w*|say|said|bring up|brought up) "
        r"(?:about |of |on )?",
        r"where (?:is|was|are|were) ",
        r"(?:all |any )?mentions? of ",
        r"(?:every|each) (?:mention|time \w+ (?:talk\w*|mention\w*|discuss\w*)) (?:of |about )?",
        r"everything (?:about|on|regarding|concerning) ",
        r"all (?:about|on) ",
        r"what do (?:we|you) know about ",
        r"who (?:is|was|are|were) ",
        r"tell me about ",
    ),
    since=(r"since", r"from", r"starting"),
    numbers=_frozen(
        {
            "a": 1,
            "an": 1,
            "one": 1,
            "two": 2,
            "three": 3,
            "four": 4,
            "five": 5,
            "six": 6,
            "seven": 7,
            "eight": 8,
            "nine": 9,
            "ten": 10,
            "twelve": 12,
            "twenty": 20,
            "thirty": 30,
            "few": 3,
            "couple of": 2,
        }
    ),
    units=_frozen(
        {
            "minute": r"minutes?|mins?",
            "hour": r"hours?|hrs?",
            "day": r"days?",
            "week": r"weeks?",
            "month": r"months?",
            "year": r"years?",
        }
    ),
    ago=(r"<N> <UNIT> ago",),
    last_n=(
        r"(?:(?:in|over|during|within|for) )?the (?:last|past|previous) (?:<N> )?<UNIT>",
        r"(?:(?:in|over|during|within|for) )?(?:last|past|previous) <N> <UNIT>",
        r"(?:(?:in|over|during|within|for) )?past <UNIT>",
    ),
    days=_frozen({0: r"today", -1: r"yesterday", -2: r"(?:the )?day before yesterday"}),
    parts=_frozen(
        {
            "morning": r"morning",
            "afternoon": r"afternoon",
            "evening": r"evening",
            "night": r"night",
        }
    ),
    day_parts=(
        (r"this morning", 0, "morning"),
        (r"this afternoon", 0, "afternoon"),
        (r"this evening", 0, "evening"),
        (r"tonight", 0, "evening"),
        (r"last night", -1, "night"),
    ),
    part_joiner=r" ",
    weekdays=(
        r"mondays?",
        r"tuesdays?",
        r"wednesdays?",
        r"thursdays?",
        r"fridays?",
        r"saturdays?",
        r"sundays?",
    ),
    previous_weekday=(r"last <WEEKDAY>", r"previous <WEEKDAY>"),
    periods=_frozen({"week": r"week", "month": r"month", "year": r"year"}),
    previous_period=(r"last <PERIOD>", r"previous <PERIOD>"),
    current_period=(r"this <PERIOD>", r"current <PERIOD>"),
    clock_leads=(r"at", r"around", r"about"),
)

FRENCH = Lexicon(
    summary=(
        r"résum\w*",
        r"récapitul\w*",
        r"récap",
        r"synthès\w*",
        r"synthétis\w*",
        r"bilan",
        r"aperçu",
        r"compte rendu",
        r"raconte\w*",
        r"de quoi",
        r"(?:qu est ce qu on a|qu a t on|qu avons nous) (?:dit|décidé|retenu|conclu)",
    ),
    breadth=(
        r"grandes? (?:étapes?|lignes?|points?|thèmes?|moments?)",
        r"(?:étapes?|points?|thèmes?|sujets?) (?:principa\w*|clés?|importants?|marquants?)",
        r"dans l ensemble",
        r"en résumé",
        r"vue d ensemble",
        r"globalement",
        r"en gros",
        r"chronologi\w*",
        r"frise",
        r"de bout en bout",
        r"du début à la fin",
        r"étape par étape",
    ),
    scope=(
        r"réunions?",
        r"discussions?",
        r"discut\w*",
        r"conversations?",
        r"échanges?",
        r"séances?",
        r"appels?",
        r"équipes?",
        r"groupes?",
        r"tout",
        r"toute",
        r"tous",
        r"toutes",
        r"entier\w*",
        r"ensemble",
        r"global\w*",
        r"général\w*",
        r"sujets?",
        r"thèmes?",
        r"points?",
        r"décisions?",
        r"décid\w*",
        r"conclusions?",
        r"conclu\w*",
        r"résultats?",
        r"ordre du jour",
        r"principa\w*",
        r"clés?",
        r"fina\w*",
        r"importants?",
        r"dit",
        r"dites?",
        r"parl\w*",
        r"abord\w*",
        r"passé",
        r"pass\w*",
        r"retenu\w*",
        r"choses?",
        r"participants?",
        r"gens",
        r"notes?",
    ),
    recency=(
        r"quoi de (?:neuf|nouveau)",
        r"qu y a t il de nouveau",
        r"qu est ce qu il y a de nouveau",
        r"du nouveau",
        r"nouveautés?",
        r"nouvelles",
        r"dernièrement",
        r"récemment",
        r"récent\w*",
        r"dernières? (?:nouvelles|infos?|informations|messages?|mises? à jour)",
        r"derniers messages",
        r"(?:qu est ce qui|qu est ce qui a|quoi) (?:a )?changé",
        r"mises? à jour",
    ),
    entity_leads=(
        r"où (?:est ce qu )?(?:parle t on|on parle|a t on parlé|avons nous parlé|parlons nous"
        r"|est il question|il est question|a t il été question|évoque t on|on évoque|a t on évoqué"
        r"|mentionne t on|on mentionne|a t on mentionné|discute t on|on discute"
        r"|a t on discuté|est il mentionné|est elle mentionnée) (?:de la |de l |du |des |de |d )?",
        r"(?:toutes? les )?mentions? (?:de la |de l |du |des |de |d )",
        r"tout (?:sur|à propos de|au sujet de|concernant) ",
        r"qui (?:est|était|sont) ",
        r"que sait on (?:de la |de l |du |des |de |d |sur )",
        r"parle moi (?:de la |de l |du |des |de |d )",
    ),
    since=(r"depuis", r"à partir d", r"à partir de", r"à compter de"),
    numbers=_frozen(
        {
            "un": 1,
            "une": 1,
            "deux": 2,
            "trois": 3,
            "quatre": 4,
            "cinq": 5,
            "six": 6,
            "sept": 7,
            "huit": 8,
            "neuf": 9,
            "dix": 10,
            "douze": 12,
            "quinze": 15,
            "vingt": 20,
            "trente": 30,
            "quelques": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"minutes?|mins?",
            "hour": r"heures?|h",
            "day": r"jours?|journées?",
            "week": r"semaines?",
            "month": r"mois",
            "year": r"ans|années?|an",
        }
    ),
    ago=(r"il y a <N> <UNIT>",),
    last_n=(
        r"(?:(?:au cours|pendant|durant|lors) (?:des|de ces) |dans les |ces |les )?<N> "
        r"derni(?:er|ère)s <UNIT>",
        r"(?:(?:au cours|pendant|durant|lors) (?:de la|du|des|de ces) "
        r"|dans les |ces |les |la |le )?derni(?:er|ère)s? (?:<N> )?<UNIT>",
    ),
    days=_frozen({0: r"aujourd hui", -1: r"hier", -2: r"avant hier"}),
    parts=_frozen(
        {"morning": r"matin(?:ée)?", "afternoon": r"après midi", "evening": r"soir(?:ée)?"}
    ),
    day_parts=(
        (r"ce matin", 0, "morning"),
        (r"cet après midi", 0, "afternoon"),
        (r"ce soir", 0, "evening"),
        (r"cette nuit", -1, "night"),
    ),
    part_joiner=r" ",
    weekdays=(r"lundi", r"mardi", r"mercredi", r"jeudi", r"vendredi", r"samedi", r"dimanche"),
    previous_weekday=(r"<WEEKDAY> derni\w*", r"<WEEKDAY> passé"),
    periods=_frozen({"week": r"semaine", "month": r"mois", "year": r"année|an"}),
    previous_period=(
        r"(?:la |le |l )?<PERIOD> derni(?:er|ère)",
        r"(?:la |le |l )?<PERIOD> passée?",
    ),
    current_period=(r"(?:cette|ce|cet) <PERIOD>(?: ci)?",),
    clock_leads=(r"à", r"vers", r"a"),
)

GERMAN = Lexicon(
    summary=(
        r"zusammenfass\w*",
        r"fass\w*",
        r"zusammen",
        r"überblick",
        r"übersicht",
        r"resümee",
        r"fazit",
        r"worum",
    ),
    breadth=(
        r"(?:die )?wichtigsten (?:punkte|schritte|themen|ergebnisse|etappen)",
        r"(?:die )?(?:haupt|kern)(?:punkte|themen|schritte|aussagen)",
        r"im (?:großen und ganzen|grossen und ganzen|überblick|allgemeinen)",
        r"insgesamt",
        r"zeitleiste",
        r"chronolog\w*",
        r"von anfang bis ende",
        r"schritt für schritt",
    ),
    scope=(
        r"besprechung\w*",
        r"meetings?",
        r"sitzung\w*",
        r"gespräch\w*",
        r"diskussion\w*",
        r"diskutiert",
        r"besprochen",
        r"team\w*",
        r"gruppe\w*",
        r"ganz\w*",
        r"gesamt\w*",
        r"alle\w*",
        r"thema",
        r"themen",
        r"punkte?",
        r"entscheidung\w*",
        r"entschieden",
        r"beschl\w*",
        r"ergebnis\w*",
        r"wichtigste\w*",
        r"haupt\w*",
        r"gesagt",
        r"geredet",
        r"gesprochen",
        r"erwähn\w*",
        r"passiert",
        r"dinge",
        r"teilnehmer\w*",
    ),
    recency=(
        r"was gibt s neues",
        r"was gibt es neues",
        r"was ist neu",
        r"neuigkeiten",
        r"neueste\w*",
        r"zuletzt",
        r"kürzlich",
        r"neulich",
        r"in letzter zeit",
        r"(?:was hat sich|was ist) (?:\w+ )?(?:geändert|verändert)",
        r"aktuelle?s?",
    ),
    entity_leads=(
        r"wo (?:reden|sprechen|redeten|sprachen|diskutieren|diskutierten) (?:wir|sie) "
        r"(?:über |von )?(?:den |die |das |dem )?",
        r"wo (?:wird|wurde) (?:über )?",
        r"(?:alle )?erwähnungen (?:von |des |der )?",
        r"alles (?:über|zu|zum|zur) ",
        r"wer (?:ist|war|sind) ",
        r"was wissen wir über ",
    ),
    since=(r"seit", r"ab"),
    numbers=_frozen(
        {
            "ein": 1,
            "eine": 1,
            "einem": 1,
            "einer": 1,
            "einen": 1,
            "zwei": 2,
            "drei": 3,
            "vier": 4,
            "fünf": 5,
            "sechs": 6,
            "sieben": 7,
            "acht": 8,
            "neun": 9,
            "zehn": 10,
            "zwölf": 12,
            "zwanzig": 20,
            "dreißig": 30,
            "paar": 3,
            "einigen": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"minuten?",
            "hour": r"stunden?",
            "day": r"tage?n?",
            "week": r"wochen?",
            "month": r"monate?n?",
            "year": r"jahre?n?",
        }
    ),
    ago=(r"vor <N> <UNIT>",),
    last_n=(
        r"(?:(?:in|während) )?(?:den|der) (?:letzten|vergangenen) (?:<N> )?<UNIT>",
        r"(?:letzten|vergangenen) <N> <UNIT>",
    ),
    days=_frozen({0: r"heute", -1: r"gestern", -2: r"vorgestern"}),
    parts=_frozen(
        {
            "morning": r"morgen|früh|vormittag",
            "afternoon": r"nachmittag",
            "evening": r"abend",
            "night": r"nacht",
        }
    ),
    day_parts=(
        (r"heute (?:morgen|früh)", 0, "morning"),
        (r"letzte nacht", -1, "night"),
    ),
    part_joiner=r" ",
    weekdays=(
        r"montags?",
        r"dienstags?",
        r"mittwochs?",
        r"donnerstags?",
        r"freitags?",
        r"samstags?|sonnabends?",
        r"sonntags?",
    ),
    previous_weekday=(r"(?:letzten|vergangenen) <WEEKDAY>",),
    periods=_frozen({"week": r"woche", "month": r"monat", "year": r"jahr"}),
    previous_period=(r"(?:letzte|letzten|letztes|vergangene|vergangenen|vergangenes) <PERIOD>",),
    current_period=(r"(?:diese|diesen|dieses) <PERIOD>",),
    clock_leads=(r"um", r"gegen"),
)

SPANISH = Lexicon(
    summary=(
        r"resum\w*",
        r"recapitul\w*",
        r"síntesis",
        r"sintetiz\w*",
        r"panorama",
        r"de qué",
    ),
    breadth=(
        r"(?:principales|grandes) (?:pasos|etapas|puntos|temas|ideas)",
        r"(?:pasos|etapas|puntos|temas|ideas) (?:principales|clave|importantes)",
        r"en general",
        r"a grandes rasgos",
        r"visión (?:general|global|de conjunto)",
        r"en resumen",
        r"cronolog\w*",
        r"línea de tiempo",
        r"de principio a fin",
        r"paso a paso",
    ),
    scope=(
        r"reuni(?:ón|ones)",
        r"discusi(?:ón|ones)",
        r"discut\w*",
        r"conversaci(?:ón|ones)",
        r"charlas?",
        r"llamadas?",
        r"sesi(?:ón|ones)",
        r"equipos?",
        r"grupos?",
        r"tod[oa]s?",
        r"enter[oa]",
        r"complet[oa]",
        r"general",
        r"temas?",
        r"puntos?",
        r"asuntos?",
        r"decisi(?:ón|ones)",
        r"decid\w*",
        r"conclusi(?:ón|ones)",
        r"resultados?",
        r"principal(?:es)?",
        r"clave",
        r"final(?:es)?",
        r"importantes?",
        r"habl\w*",
        r"dich[oa]",
        r"dij\w*",
        r"trat\w*",
        r"pas[óo]",
        r"cosas?",
        r"participantes?",
    ),
    recency=(
        r"qué hay de nuevo",
        r"qué (?:hay|ha habido) de nuevo",
        r"novedad(?:es)?",
        r"lo (?:último|más reciente)",
        r"últimamente",
        r"recientemente",
        r"recientes?",
        r"qué ha cambiado",
        r"actualizaci(?:ón|ones)",
    ),
    entity_leads=(
        r"dónde (?:hablamos|hablan|hablaron|se habla|se habló|se menciona|se mencionó"
        r"|mencionamos|discutimos|se discute|se discutió) "
        r"(?:del |de la |de los |de las |de |sobre )?",
        r"(?:todas las )?menciones (?:del |de la |de los |de las |de |a )",
        r"todo (?:sobre|acerca de) ",
        r"quién (?:es|era|fue) ",
        r"qué sabemos (?:de|sobre) ",
    ),
    since=(r"desde", r"a partir de"),
    numbers=_frozen(
        {
            "un": 1,
            "una": 1,
            "uno": 1,
            "dos": 2,
            "tres": 3,
            "cuatro": 4,
            "cinco": 5,
            "seis": 6,
            "siete": 7,
            "ocho": 8,
            "nueve": 9,
            "diez": 10,
            "doce": 12,
            "quince": 15,
            "veinte": 20,
            "treinta": 30,
            "unos pocos": 3,
            "unas pocas": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"minutos?",
            "hour": r"horas?",
            "day": r"días?",
            "week": r"semanas?",
            "month": r"mes(?:es)?",
            "year": r"años?",
        }
    ),
    ago=(r"hace <N> <UNIT>",),
    last_n=(
        r"(?:(?:en|durante) )?(?:las|los|el|la) (?:últim[oa]s?|pasad[oa]s?) (?:<N> )?<UNIT>",
        r"desde hace <N> <UNIT>",
    ),
    days=_frozen({0: r"hoy", -1: r"ayer", -2: r"anteayer|antes de ayer"}),
    parts=_frozen({"morning": r"mañana", "afternoon": r"tarde", "evening": r"noche"}),
    day_parts=(
        (r"esta mañana", 0, "morning"),
        (r"esta tarde", 0, "afternoon"),
        (r"esta noche", 0, "evening"),
        (r"anoche", -1, "night"),
    ),
    part_joiner=r" (?:por la |en la |a la )?",
    weekdays=(r"lunes", r"martes", r"miércoles", r"jueves", r"viernes", r"sábados?", r"domingos?"),
    previous_weekday=(r"(?:el )?<WEEKDAY> pasado",),
    periods=_frozen({"week": r"semana", "month": r"mes", "year": r"año"}),
    previous_period=(r"(?:la |el )?<PERIOD> pasad[oa]", r"(?:la |el )?<PERIOD> anterior"),
    current_period=(r"(?:esta|este) <PERIOD>",),
    clock_leads=(r"a las", r"a la", r"sobre las"),
)

ITALIAN = Lexicon(
    summary=(
        r"riassum\w*",
        r"riassunto",
        r"riepilog\w*",
        r"ricapitol\w*",
        r"sintesi",
        r"sintetizz\w*",
        r"panoramica",
        r"di cosa",
        r"di che cosa",
    ),
    breadth=(
        r"(?:principali|grandi) (?:passi|tappe|fasi|punti|temi)",
        r"(?:passi|tappe|fasi|punti|temi) (?:principali|chiave|importanti)",
        r"nel complesso",
        r"in generale",
        r"a grandi linee",
        r"quadro generale",
        r"in sintesi",
        r"in breve",
        r"cronolog\w*",
        r"dall inizio alla fine",
        r"passo dopo passo",
    ),
    scope=(
        r"riunion[ei]",
        r"discussion[ei]",
        r"discuss\w*",
        r"conversazion[ei]",
        r"chiamat[ae]",
        r"session[ei]",
        r"squadr[ae]",
        r"team",
        r"grupp[oi]",
        r"tutt[oaie]",
        r"inter[oa]",
        r"generale",
        r"argoment[oi]",
        r"tem[ai]",
        r"punt[oi]",
        r"decision[ei]",
        r"decis[oi]",
        r"conclusion[ei]",
        r"risultat[oi]",
        r"principal[ei]",
        r"chiave",
        r"final[ei]",
        r"important[ei]",
        r"parlat[oi]",
        r"parl\w*",
        r"dett[oa]",
        r"success[oa]",
        r"cose",
        r"partecipanti",
    ),
    recency=(
        r"cosa c è di nuovo",
        r"che c è di nuovo",
        r"novità",
        r"ultimamente",
        r"recentemente",
        r"di recente",
        r"recent[ei]",
        r"(?:le )?ultime (?:notizie|novità|informazioni|messaggi)",
        r"cosa è cambiato",
        r"aggiornament[oi]",
    ),
    entity_leads=(
        r"dove (?:parliamo|parlano|abbiamo parlato|si parla|si è parlato|si menziona"
        r"|si è menzionato|discutiamo|si discute) "
        r"(?:del |della |dello |dei |degli |delle |di |d )?",
        r"(?:tutte le )?menzioni (?:del |della |dello |dei |degli |delle |di |d )",
        r"tutto (?:su|sul|sulla|sullo|riguardo) ",
        r"chi (?:è|era|sono) ",
        r"cosa sappiamo (?:di|su) ",
    ),
    since=(r"da", r"dal", r"dalla", r"dall", r"dallo", r"a partire da"),
    numbers=_frozen(
        {
            "un": 1,
            "uno": 1,
            "una": 1,
            "due": 2,
            "tre": 3,
            "quattro": 4,
            "cinque": 5,
            "sei": 6,
            "sette": 7,
            "otto": 8,
            "nove": 9,
            "dieci": 10,
            "dodici": 12,
            "quindici": 15,
            "venti": 20,
            "trenta": 30,
            "qualche": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"minut[oi]",
            "hour": r"or[ae]",
            "day": r"giorn[oi]|giornat[ae]",
            "week": r"settiman[ae]",
            "month": r"mes[ei]",
            "year": r"ann[oi]",
        }
    ),
    ago=(r"<N> <UNIT> fa",),
    last_n=(
        r"(?:nelle|negli|nei|nell|nella|durante le|durante gli|le|gli|i|l) "
        r"ultim[aeio] (?:<N> )?<UNIT>",
    ),
    days=_frozen({0: r"oggi", -1: r"ieri", -2: r"l altro ieri|ieri l altro|avantieri"}),
    parts=_frozen(
        {
            "morning": r"mattin[ao]",
            "afternoon": r"pomeriggio",
            "evening": r"sera",
            "night": r"notte",
        }
    ),
    day_parts=(
        (r"stamattina|stamani|questa mattina", 0, "morning"),
        (r"oggi pomeriggio|questo pomeriggio", 0, "afternoon"),
        (r"stasera|questa sera", 0, "evening"),
        (r"stanotte|questa notte", -1, "night"),
    ),
    part_joiner=r" ",
    weekdays=(r"lunedì", r"martedì", r"mercoledì", r"giovedì", r"venerdì", r"sabato", r"domenica"),
    previous_weekday=(r"<WEEKDAY> scors[oa]",),
    periods=_frozen({"week": r"settimana", "month": r"mese", "year": r"anno"}),
    previous_period=(
        r"(?:la |il |l )?<PERIOD> (?:scors|passat)[oa]",
        r"(?:la |il |l )?scors[oa] <PERIOD>",
    ),
    current_period=(r"(?:questa|questo|quest) <PERIOD>",),
    clock_leads=(r"alle", r"all", r"verso le", r"a"),
)

PORTUGUESE = Lexicon(
    summary=(
        r"resum\w*",
        r"recapitul\w*",
        r"síntese",
        r"sintetiz\w*",
        r"panorama",
        r"visão geral",
        r"sobre o que",
        r"do que",
    ),
    breadth=(
        r"(?:principais|grandes) (?:passos|etapas|pontos|temas|ideias)",
        r"(?:passos|etapas|pontos|temas|ideias) (?:principais|chave|importantes)",
        r"em geral",
        r"de modo geral",
        r"em linhas gerais",
        r"em resumo",
        r"cronolog\w*",
        r"linha do tempo",
        r"do início ao fim",
        r"passo a passo",
    ),
    scope=(
        r"reuni(?:ão|ões)",
        r"discuss(?:ão|ões)",
        r"discut\w*",
        r"conversas?",
        r"chamadas?",
        r"sess(?:ão|ões)",
        r"equipes?",
        r"equipas?",
        r"grupos?",
        r"tod[oa]s?",
        r"tudo",
        r"inteir[oa]",
        r"complet[oa]",
        r"geral",
        r"tópicos?",
        r"temas?",
        r"assuntos?",
        r"pontos?",
        r"decis(?:ão|ões)",
        r"decid\w*",
        r"conclus(?:ão|ões)",
        r"resultados?",
        r"principa(?:l|is)",
        r"chave",
        r"fina(?:l|is)",
        r"importantes?",
        r"fal\w*",
        r"dit[oa]",
        r"aconteceu",
        r"coisas?",
        r"participantes?",
    ),
    recency=(
        r"o que há de novo",
        r"o que (?:tem|temos) de novo",
        r"novidades?",
        r"ultimamente",
        r"recentemente",
        r"recentes?",
        r"o que mudou",
        r"atualizaç(?:ão|ões)",
    ),
    entity_leads=(
        r"onde (?:falamos|falam|falaram|se fala|se falou|se menciona|se mencionou"
        r"|mencionamos|discutimos|se discute|se discutiu) "
        r"(?:do |da |dos |das |de |sobre (?:o |a )?)?",
        r"(?:todas as )?menç(?:ão|ões) (?:ao |à |do |da |dos |das |de |a )",
        r"tudo (?:sobre|acerca de) (?:o |a )?",
        r"quem (?:é|era|foi) ",
        r"o que sabemos (?:de|sobre) ",
    ),
    since=(r"desde", r"a partir de"),
    numbers=_frozen(
        {
            "um": 1,
            "uma": 1,
            "dois": 2,
            "duas": 2,
            "três": 3,
            "quatro": 4,
            "cinco": 5,
            "seis": 6,
            "sete": 7,
            "oito": 8,
            "nove": 9,
            "dez": 10,
            "doze": 12,
            "quinze": 15,
            "vinte": 20,
            "trinta": 30,
            "alguns": 3,
            "algumas": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"minutos?",
            "hour": r"horas?",
            "day": r"dias?",
            "week": r"semanas?",
            "month": r"mês|meses",
            "year": r"anos?",
        }
    ),
    ago=(r"há <N> <UNIT>", r"<N> <UNIT> atrás"),
    last_n=(r"(?:(?:nas|nos|durante as|durante os) |(?:as|os) )?últim[oa]s? (?:<N> )?<UNIT>",),
    days=_frozen({0: r"hoje", -1: r"ontem", -2: r"anteontem"}),
    parts=_frozen({"morning": r"manhã", "afternoon": r"tarde", "evening": r"noite"}),
    day_parts=(
        (r"esta manhã|nesta manhã", 0, "morning"),
        (r"esta tarde|nesta tarde", 0, "afternoon"),
        (r"esta noite|nesta noite", 0, "evening"),
    ),
    part_joiner=r" (?:de |à |a |pela |na )?",
    weekdays=(
        r"segunda feira",
        r"terça feira",
        r"quarta feira",
        r"quinta feira",
        r"sexta feira",
        r"sábados?",
        r"domingos?",
    ),
    previous_weekday=(r"(?:na |no )?<WEEKDAY> passad[oa]",),
    periods=_frozen({"week": r"semana", "month": r"mês", "year": r"ano"}),
    previous_period=(r"(?:na |no |a |o )?<PERIOD> passad[oa]", r"(?:na |no )?<PERIOD> anterior"),
    current_period=(r"(?:esta|este|nesta|neste) <PERIOD>",),
    clock_leads=(r"às", r"as", r"por volta das"),
)

#: Every language with cues, by ISO 639-1 code.
LEXICONS: Mapping[str, Lexicon] = MappingProxyType(
    {
        "en": ENGLISH,
        "fr": FRENCH,
        "de": GERMAN,
        "es": SPANISH,
        "it": ITALIAN,
        "pt": PORTUGUESE,
    }
)
