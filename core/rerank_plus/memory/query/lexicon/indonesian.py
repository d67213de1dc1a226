"""Indonesian cues (see :mod:`rerank_plus.memory.query.lexicon`).

Affixes make the forms ("bahas", "membahas", "dibahas", "pembahasan", "rapatnya"), so entries
list them rather than end in ``\\w*`` where another word shares the stem ("bahasa" is
language) or another language has the word ("tim" is a name, "sesi" the start of Spanish
"sesión", "agenda" and "seminar" are English): every language's cues are tried on every
query. Reduplication is written with a hyphen ("poin-poin"), which folding reads as a space.
"minggu" is both week and Sunday: Sunday is "hari Minggu".
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: Talking about something, in the forms a question gives it ("membahas", "dibicarakan").
_TALK = (
    r"(?:(?:mem|di|ber)?bahas|(?:mem|di|ber)?bicara(?:kan)?|(?:men|di|ber)diskusi(?:kan)?"
    r"|(?:me|di)nyebut(?:kan)?|disebut(?:kan)?|(?:di|me)nyinggung|ngomong(?:in)?"
    r"|ngobrol(?:in)?)"
)

#: The same, said of the topic ("anggaran dibahas"): the talk comes after it.
_TALKED = r"(?:dibahas|dibicarakan|didiskusikan|disebut(?:kan)?|disinggung)"

#: An hour from one to six, in digits or words, as a lookahead.
_EARLY_HOUR = r"(?=(?:[123456]|satu|dua|tiga|empat|lima|enam)(?![\d\w]))"
#: What a clock time may follow ("pukul 14.00", "jam 3 sore").
_AT = r"(?:(?:pada|sekitar|sejak|mulai|dari) )?(?:pukul|jam)"

INDONESIAN = Lexicon(
    summary=(
        r"(?:me)?ringkas(?:kan|lah|an|annya)?",
        r"(?:me)?rangkum(?:kan|lah|an|annya)?",
        r"ikhtisar(?:nya)?",
        r"intisari(?:nya)?",
        r"(?:secara |dengan )?singkat(?:nya)?",
        r"(?:me)?nyimpulkan|simpulkan",
        r"rekap(?:kan|an|nya)?",
        r"rekapitulasi(?:nya)?",
        r"(?:tentang|mengenai|soal) apa(?: saja)?",
        r"(?:mem|di)?bahas apa(?: saja)?",
        r"(?:ber)?bicara (?:tentang )?apa(?: saja)?",
    ),
    breadth=(
        r"(?:poin|hal|topik|isu|keputusan|langkah|ide|pokok|inti|tema|masalah|pembahasan"
        r"|kesimpulan|gagasan)(?: (?:poin|hal|topik|isu|keputusan|langkah|ide|masalah))? "
        r"(?:utama|penting|terpenting|pokok|kunci)(?:nya)?",
        r"gambaran (?:umum|besar|keseluruhan)(?:nya)?",
        r"secara (?:umum|keseluruhan|garis besar)",
        r"garis besar(?:nya)?",
        r"dari awal (?:sampai|hingga) akhir",
        r"langkah demi langkah",
        r"kronologi(?:s|nya)?",
        r"linimasa",
        r"langkah (?:selanjutnya|berikutnya)",
        r"tindak lanjut(?:nya)?",
    ),
    scope=(
        r"rapat(?:nya)?",
        r"pertemuan(?:nya)?",
        r"(?:ber|men|di)?diskusi(?:kan|nya)?",
        r"(?:mem|di|pem)?bahas(?:an|annya|nya)?",
        r"(?:ber|di|mem|pem)?bicara(?:kan|an|annya)?",
        r"(?:meng|di)?obrol(?:kan|an)?",
        r"ngobrol(?:in)?",
        r"ngomong(?:in)?",
        r"percakapan(?:nya)?",
        r"sesinya",
        r"sesi (?:ini|itu|tadi|rapat|diskusi)",  # "sesi" alone is Turkish
        r"kelompok(?:nya)?",
        r"timnya",
        r"semua(?:nya)?",
        r"seluruh(?:nya)?",
        r"keseluruhan(?:nya)?",
        r"segala(?:nya)?",
        r"topik(?:nya)?",
        r"pokok(?: pembahasan)?",
        r"poin(?:nya| poin)?",
        r"hal hal",
        r"isu(?:nya)?",
        r"masalah(?:nya)?",
        r"keputusan(?:nya)?",
        r"(?:mem|di)utuskan",
        r"(?:ke)?sepakatan(?:nya)?",
        r"(?:di|me)nyepakati|disepakati|sepakat",
        r"hasil(?:nya)?",
        r"kesimpulan(?:nya)?",
        r"agendanya",
        r"utama(?:nya)?",
        r"penting(?:nya)?",
        r"terpenting",
        r"kunci",
        r"(?:di|ter)?sebut(?:kan)?",
        r"menyebut(?:kan)?",
        r"(?:di|me)nyinggung",
        r"(?:di|me)ngatakan|dikatakan",
        r"bilang",
        r"(?:di)?sampaikan",
        r"terjadi",
        r"diambil",
        r"dibuat",
        r"dicapai",
        r"berlangsung",
        r"proyek(?:nya)?",
        r"lokakarya",
        r"wawancara",
        r"catatan(?:nya)?",
        r"notula",
        r"peserta(?:nya)?",
        r"anggota(?:nya)?",
        r"orang orang",
        r"tolong",
        r"mohon",
        r"silakan",
        r"terima ?kasih",
        r"makasih",
        r"berikan",
        r"buat(?:kan|kanlah|lah)?",
        r"tadi",
        r"jelaskan",
        r"ceritakan",
        r"sebutkan",
        r"bisakah",
    ),
    future=(r"berikutnya", r"selanjutnya", r"mendatang", r"(?:yang )?akan datang", r"depan"),
    recency=(
        r"apa (?:yang )?(?:baru|terbaru)",
        r"ada (?:apa |yang )?(?:baru|terbaru)",
        r"(?:kabar|berita|info|informasi|pembaruan|update) terbaru",
        r"terbaru",
        r"baru baru ini",
        r"akhir akhir ini",
        r"belakangan(?: ini)?",
        r"(?:rapat|pertemuan|diskusi|pembicaraan) terakhir",
        r"apa (?:saja )?yang (?:sudah |telah )?berubah",
        r"(?:saya|aku) lewatkan",
        r"yang terlewat(?:kan)?",
    ),
    entity_leads=(
        r"di ?mana (?:(?:kita|kami|mereka|kalian|anda) )?(?:(?:sudah|telah|pernah) )?"
        + _TALK
        + r"(?: (?:tentang|soal|mengenai))? ",
        # "di mana anggaran dibahas": the topic stands between
        r"di ?mana (?=[^?.!]*(?<!\w)" + _TALKED + r"(?!\w))",
        r"(?:bagian|sesi|rapat) mana (?:yang )?" + _TALK + r"(?: (?:tentang|soal|mengenai))? ",
        r"(?:semua |seluruh )?(?:penyebutan|sebutan) (?:tentang |soal |mengenai )?",
        r"(?:segala(?: sesuatu)?|semua(?: hal)?) (?:tentang|soal|mengenai) ",
        r"apa (?:yang )?(?:kita|kami) (?:ke)?tahu(?:i)? (?:tentang|soal|mengenai) ",
    ),
    name_leads=(r"siapa(?:kah)? (?:itu |sih )?",),
    name_trails=(r"(?:itu )?siapa(?:kah)?(?: sih)?(?= ?[?.!]*$)",),  # "Budi itu siapa?"
    since=(r"sejak", r"semenjak", r"mulai", r"dari"),
    range_opening=(r"dari", r"mulai", r"antara"),
    range_inner=(r"sampai(?: dengan)?", r"hingga", r"dan"),
    numbers=_frozen(
        {
            "satu": 1,
            "dua": 2,
            "tiga": 3,
            "empat": 4,
            "lima": 5,
            "enam": 6,
            "tujuh": 7,
            "delapan": 8,
            "sembilan": 9,
            "sepuluh": 10,
            "dua belas": 12,
            "dua puluh": 20,
            "tiga puluh": 30,
            "beberapa": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"(?:se)?menit",
            "hour": r"(?:se)?jam",
            "day": r"(?:se)?hari",
            "week": r"(?:se)?minggu|(?:se)?pekan",
            "month": r"(?:se)?bulan",
            "year": r"(?:se)?tahun",
        }
    ),
    ago=(r"(?:<N> )?<UNIT> (?:yang )?(?:lalu|silam)",),
    last_n=(
        r"(?:(?:dalam|selama) )?(?:<N> )?<UNIT> (?:terakhir|belakangan(?: ini)?|ke ?belakang)",
    ),
    days=_frozen({0: r"hari ini", -1: r"kemarin(?! lusa)|kemaren", -2: r"kemarin lusa"}),
    parts=_frozen(
        {
            "morning": r"pagi(?: hari)?",
            "afternoon": r"siang(?: hari)?|sore(?: hari)?",
            "evening": r"malam(?: hari)?",
            "night": r"tengah malam|dini hari",
        }
    ),
    day_parts=(
        (r"tadi pagi|pagi (?:ini|tadi)", 0, "morning"),
        (r"tadi siang|siang (?:ini|tadi)", 0, "afternoon"),
        (r"tadi sore|sore (?:ini|tadi)", 0, "afternoon"),
        (r"malam ini|nanti malam", 0, "evening"),
        (r"tadi malam|semalam", -1, "night"),
    ),
    part_joiner=r" (?:pada )?",
    weekdays=(
        # "senin" alone is Turkish (your): a lead word or a word of time next to it (alone,
        # it is the day only as the whole text, which is what reading a match's parts sees)
        r"(?:hari|pada|sejak|mulai|dari|antara|sampai|hingga|tiap|setiap) senin"
        r"|senin(?= (?:lalu|kemarin|yang lalu"
        r"|sebelumnya|ini|pagi|siang|sore|malam|depan))|(?<!.)senin(?!.)",
        r"(?:hari )?selasa",
        r"(?:hari )?rabu",
        r"(?:hari )?kamis",
        r"(?:hari )?jum ?at",
        r"(?:hari )?sabtu",
        r"hari minggu|(?:hari )?ahad",  # "minggu" alone is a week
    ),
    previous_weekday=(r"<WEEKDAY> (?:lalu|kemarin|yang lalu|sebelumnya)",),
    periods=_frozen({"week": r"minggu|pekan", "month": r"bulan", "year": r"tahun"}),
    previous_period=(r"<PERIOD> (?:lalu|kemarin|yang lalu|sebelumnya)",),
    current_period=(r"<PERIOD> ini",),
    clock_leads=(r"pukul", r"sekitar pukul", r"pada pukul"),
    clock_times=(
        _AT + r" <HOUR>(?:[.:]<MINUTE>)?(?: pagi)?",
        _AT + r" <HOUR>(?:[.:]<MINUTE>)? (?:sore|malam)<PM>",
        # "siang" runs from late morning to mid-afternoon: "jam 1 siang" is 13:00, "jam 11
        # siang" 11:00
        _AT + r" " + _EARLY_HOUR + r"<HOUR>(?:[.:]<MINUTE>)? siang<PM>",
        _AT + r" <HOUR>(?:[.:]<MINUTE>)? siang",
    ),
    months=(
        r"januari|jan",
        r"februari|pebruari|feb|peb",
        r"maret|mar",
        r"april|apr",
        r"mei",
        r"juni|jun",
        r"juli|jul",
        r"agustus|agu|agt|ags",
        r"september|sept?",
        r"oktober|okt",
        r"november|nopember|nov|nop",
        r"desember",  # not "des": French "des"
    ),
    month_alone=(
        r"(?:(?:pada|di|sejak|dari|selama) )?(?:(?:awal|akhir|pertengahan) )?bulan <MONTH>"
        r"(?: <YEAR>)?",
        r"(?:pada|sejak|dari|selama|awal|akhir|pertengahan) <MONTH>(?: <YEAR>)?",
        r"<MONTH> <YEAR>",
    ),
    day_dates=(r"(?:(?:pada|sejak|dari) )?(?:tanggal |tgl\.? )?<DAY> <MONTH>(?: <YEAR>)?",),
)
