# ruff: noqa: RUF001, RUF002, RUF003  (the dotless "ı" is a Turkish letter, not a lookalike)
"""Turkish cues (see :mod:`rerank_plus.memory.query.lexicon`).

Case and person are suffixes ("toplantıyı", "konuştuk", "dünden"), so entries are stems or
list their suffixes (the suffixes, where another language shares the stem: "proje\\w*" took
English "project" and "ded[ıi]\\w*" Spanish "dedica" out of questions); a proper noun or a
number takes its suffix after an apostrophe ("Mayıs'ta", which folding splits into two
words). Folding keeps the dotless "ı" but reads
"I" and "İ" as "i", and users type "i" for both: "ı" is written ``[ıi]``. The entity comes
first ("bütçe hakkında nerede konuştuk"), and "since" follows the time ("dünden beri").
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: A case suffix, joined or after an apostrophe ("martta", "Mayıs'tan", "2023'te").
_CASE = r"(?: ?' ?| ?)(?:[dt][ae]n?|[dt][ae]ki)"

#: A case suffix joined to a month ("martta", "mayısta").
_JOINED = r"(?:[dt][ae]n?)?"

#: "günü" after a weekday ("pazartesi günü").
_DAY = r"(?: g[uü]n[uü]\w*)?"

#: Talking about something, in the forms a question gives it.
_TALK = r"(?:konu[sş]|bahs|bahset|tart[ıi][sş]|de[gğ]in|s[oö]z et|g[oö]r[uü][sş])\w*"

TURKISH = Lexicon(
    summary=(
        r"[oö]zet\w*",
        r"k[ıi]saca",
        r"toparla\w*",
        r"listele\w*",
        r"s[ıi]rala\w*",
        r"ne hakk[ıi]nda\w*",
        r"neyle ilgili\w*",
        r"ne (?:ile|üzerine) ilgili\w*",
    ),
    breadth=(
        r"(?:en )?(?:ana|temel|[oö]nemli|ba[sş]l[ıi]ca|kilit) (?:nokta|konu|ba[sş]l[ıi]k|karar"
        r"|ad[ıi]m|fikir|tema|mesele|sonu[cç])\w*",
        r"genel (?:bak[ıi][sş]|hatlar|tablo|[cç]er[cç]eve)\w*",
        r"genel ?olarak",
        r"genel ?de",
        r"ba[sş]tan sona",
        r"ad[ıi]m ad[ıi]m",
        r"kronolojik\w*",
        r"zaman [cç]izelge\w*",
        r"(?:bir )?sonraki ad[ıi]m\w*",
        r"yap[ıi]lacak(?:lar)?\w*",
        r"aksiyon (?:maddeleri|plan[ıi])\w*",
    ),
    scope=(
        r"toplant[ıi]\w*",
        r"g[oö]r[uü][sş]\w*",
        r"m[uü]zakere\w*",
        r"tart[ıi][sş]\w*",
        r"konu[sş]\w*",
        r"konu(?:[lydn]\w*)?",
        r"sohbet\w*",
        r"oturum\w*",
        r"ekip\w*",
        r"tak[ıi]m\w*",
        r"grup(?:ta|tan|la|lar\w*)?",
        r"grub(?:u|un|a|umuz\w*|unuz\w*)",
        r"t[uü]m[uü]?",
        r"b[uü]t[uü]n[uü]?",
        r"hepsi\w*",
        r"her ?[sş]ey\w*",
        r"herkes\w*",
        r"genel",
        r"bir",
        r"ba[sş]l[ıi]k\w*",
        r"nokta\w*",
        r"madde\w*",
        r"karar\w*",
        r"sonu[cç]\w*",
        r"g[uü]ndem\w*",
        r"[oö]nemli\w*",
        r"s[oö]yle\w*",
        r"bahs\w*",
        r"de[gğ]in\w*",
        r"al[ıi]n(?:d[ıi]|an|m[ıi][sş])\w*",
        r"veril\w*",
        r"verd[ıi](?:m|n|k|niz|ler|[gğ][ıi]\w*)?",
        r"ded[ıi](?:m|n|k|niz|ler|[gğ][ıi]\w*)?",
        r"ver(?:ir|in|ebilir)\w*",
        r"yap(?:ar|[ıi]n|abilir|[ıi]l)\w*",
        r"yap",
        r"anlat\w*",
        r"[cç][ıi]kar\w*",
        r"anla[sş](?:ma\w*|t[ıi]\w*|[ıi]l\w*)",
        r"uzla[sş]\w*",
        r"olan(?:lar)?\w*",
        r"oldu\w*",
        r"neler\w*",
        r"hakk[ıi]nda\w*",
        r"m[iıuü]s[iıuü]n(?:[iıuü]z)?",
        r"proje(?:ler\w*|nin|ye|de|den|si\w*|yi|miz\w*|niz\w*)?",
        r"at[oö]lye\w*",
        r"seminer\w*",
        r"tutanak\w*",
        r"notlar\w*",
        r"kat[ıi]l[ıi]mc[ıi]\w*",
        r"insanlar\w*",
        r"l[uü]tfen",
        r"te[sş]ekk[uü]r\w*",
        r"sa[gğ] ?ol\w*",
    ),
    future=(
        r"gelecek\w*",
        r"(?:bir )?sonraki\w*",
        r"[oö]n[uü]m[uü]zdeki",
        r"yakla[sş]an",
        r"planlan\w*",
    ),
    recency=(
        r"ne(?:ler)? yeni",
        r"yeni (?:ne|neler) var",
        r"yeni (?:bir )?[sş]ey\w*",
        r"yenilik\w*",
        r"son (?:durum|geli[sş]me|haber|toplant[ıi]|g[oö]r[uü][sş]me|g[uü]ncelleme)\w*",
        r"son zamanlarda",
        r"yak[ıi]n zamanda",
        r"ge[cç]enlerde",
        r"ne(?:yi|ler[ıi])? ka[cç][ıi]rd[ıi]m",
        r"ne(?:ler)? de[gğ]i[sş]ti",
        r"ne var ne yok",
    ),
    entity_leads=(r"(?:t[uü]m|b[uü]t[uü]n) (?:bahisler|anmalar) ",),
    entity_trails=(
        r"(?:(?:hakk[ıi]nda|ile ilgili|konusunda|[uü]zerine) )?(?:nerede|nerelerde|hangi "
        r"(?:toplant[ıi]da|k[ıi]s[ıi]mda|b[oö]l[uü]mde)) " + _TALK,
        r"(?:hakk[ıi]nda|ile ilgili) (?:her ?[sş]ey|ne(?:ler)? biliyoruz)",
    ),
    name_leads=(r"kim (?:bu|[sş]u) ",),
    # "Ahmet kim?", "Ahmet kimdir?": at the end ("Ahmet kimle konuştu?" asks something else)
    name_trails=(r"kim(?:dir|di|mi[sş])?(?= ?[?.!]*$)",),
    since=(),
    since_after=(r"beri", r"bu yana", r"itibaren"),
    range_inner=(r"ile", r"ve"),
    range_endings=(r"[dt][ae]n",),
    range_closing=(r"kadar", r"aras[ıi]nda"),
    numbers=_frozen(
        {
            "bir": 1,
            "iki": 2,
            "üç": 3,
            "dört": 4,
            "beş": 5,
            "altı": 6,
            "alti": 6,
            "yedi": 7,
            "sekiz": 8,
            "dokuz": 9,
            "on": 10,
            "on iki": 12,
            "yirmi": 20,
            "otuz": 30,
            "birkaç": 3,
            "bir kaç": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"dakika\w*|dk",
            "hour": r"saat\w*",
            "day": r"g[uü]n\w*",
            "week": r"hafta\w*",
            "month": r"ay(?:[dt][ae]n?|lar\w*|l[ıi]k|[ıi]n\w*|[ıi])?",
            "year": r"y[ıi]l\w*|sene\w*",
        }
    ),
    ago=(r"<N> <UNIT> (?:[oö]nce|evvel)",),
    last_n=(
        r"(?:son|ge[cç]ti[gğ]imiz|geride kalan) (?:<N> )?<UNIT>(?: (?:i[cç]inde|i[cç]erisinde"
        r"|zarf[ıi]nda|boyunca))?",
    ),
    days=_frozen(
        {
            0: r"bug[uü]n(?:k[uü]|den|[uü])?",
            -1: r"d[uü]n(?:k[uü]|den|[uü])?",
            -2: r"evvel(?:si|ki) g[uü]n\w*|d[uü]nden [oö]nceki g[uü]n\w*",
        }
    ),
    parts=_frozen(
        {
            "morning": r"sabah\w*",
            "afternoon": r"[oö][gğ]leden sonra|[oö][gğ]len\w*",
            "evening": r"ak[sş]am\w*",
            "night": r"gece\w*",
        }
    ),
    day_parts=(
        (r"bu sabah\w*", 0, "morning"),
        (r"bu [oö][gğ]leden sonra", 0, "afternoon"),
        (r"bu ak[sş]am\w*", 0, "evening"),
        (r"ge[cç]en gece\w*", -1, "night"),
    ),
    part_joiner=r" ",
    weekdays=(
        r"pazartesi\w*" + _DAY,
        r"sal[ıi](?:[dt][ae]n?|y[ıi]|y[ae]|n[ıi]n)?" + _DAY,
        r"[cç]ar[sş]amba\w*" + _DAY,
        r"per[sş]embe\w*" + _DAY,
        r"cuma(?!rtesi)\w*" + _DAY,
        r"cumartesi\w*" + _DAY,
        r"pazar(?:[dt][ae]n?|[ıi]|a|[ıi]n[ıi]n)?" + _DAY,  # "pazarlama" is marketing
    ),
    previous_weekday=(r"(?:ge[cç]en|ge[cç]ti[gğ]imiz) <WEEKDAY>",),
    periods=_frozen(
        {"week": r"hafta\w*", "month": r"ay(?:[dt][ae]n?|[ıi])?", "year": r"y[ıi]l\w*|sene\w*"}
    ),
    previous_period=(r"(?:ge[cç]en|ge[cç]ti[gğ]imiz) <PERIOD>",),
    current_period=(r"bu <PERIOD>",),
    clock_leads=(r"saat",),
    clock_times=(
        r"saat <HOUR>(?:[:.]<MINUTE>)?(?:" + _CASE + r")?",
        r"<HOUR>:<MINUTE> ?'(?:[dt][ae]n?|[dt][ae]ki|y?[ae](?= kadar))",  # "11:30'a kadar"
    ),
    months=(
        r"ocak" + _JOINED,
        r"[sş]ubat" + _JOINED,
        r"mart" + _JOINED,
        r"nisan" + _JOINED,
        r"may[ıi]s" + _JOINED,
        r"haziran" + _JOINED,
        r"temmuz" + _JOINED,
        r"a[gğ]ustos" + _JOINED,
        r"eyl[uü]l" + _JOINED,
        r"ekim" + _JOINED,
        r"kas[ıi]m" + _JOINED,
        r"aral[ıi]k" + _JOINED,
    ),
    month_alone=(
        r"<MONTH>(?: <YEAR>)?(?:" + _CASE + r"| ay[ıi]n(?:[dt][ae]n?)?)",
        r"<MONTH> <YEAR>",
    ),
    day_dates=(r"<DAY> <MONTH>(?: <YEAR>)?(?:" + _CASE + r")?",),
)
