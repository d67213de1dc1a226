"""Korean cues (see :mod:`rerank_plus.memory.query.lexicon`).

Spaces fall between phrases, and particles and endings are written onto the word ("어제부터",
"예산에 대해", "이야기했나요"), so the table is written as for a language without spaces:
fragments match inside a run of letters, with the endings a question gives them. Where a
fragment must start or end a phrase it says so (``(?<!\\w)``, :data:`_END`). Particles after
a noun of two or more syllables are scope words (:data:`_PARTICLE`), so that "예산이" leaves
"예산" to the analysis layer, and the noun, not the noun with its particle, is an entity.
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: Hangul syllables (folding keeps them whole); written with escapes, as folding would turn a
#: hyphen between two letters into a space.
_SYLLABLE = r"[\uac00-\ud7a3]"
#: Where a phrase ends: no syllable follows.
_END = r"(?!" + _SYLLABLE + r")"
#: Particles: after any noun those that never end one; after two syllables those that may
#: ("결과", "평가", "회의" keep their last syllable). Not after the last syllable of a time word
#: ("월요일에", "오늘은"): the time expression takes its particle.
_PARTICLE = (
    r"(?<![일주달월해년시분늘제께전후침녁밤벽간안내반근즘])"
    r"(?:(?<=" + _SYLLABLE + r")(?:를|은|는|에서|에게|께서|한테|에는|에서는|에서도|에도|으로|"
    r"으로는|이랑|이나)|(?<=" + _SYLLABLE + r"{2})(?:이|가|을|의|에|도|로|와|과))" + _END
)
#: A syllable that ends in ㅆ: a verb in the past ("었", "했", "졌"), "있" or "겠".
_PAST = "[" + "".join(chr(c) for c in range(0xAC00, 0xD7A4) if (c - 0xAC00) % 28 == 20) + "]"
#: The particles a scope noun may take (written onto it: "팀의", "회의를"), the longest first.
_ON_NOUN = (
    r"(?:들)?(?:에서는|에서|에게|에는|으로|이나|이란"
    r"|은|는|이|가|을|를|의|에|도|만|과|와|로)?"
)
#: Endings after a stem ("했나요", "었어요"): what a question or a request ends with.
_FINAL = (
    r"(?:나요|나|니|니까|냐|어요|아요|어|아|습니까|지요|죠|지|는지|을까요?|던가요?|는가요?|다|습니다"
    r"|네요|요|고요|는데요?|던)"
)
#: A 하다/되다 verb's endings after its noun ("논의했나요", "결정된", "요약해").
_DO = (
    r"(?:했|하였|됐|되었|했었|하셨|되셨)" + _FINAL + r"?"
    r"|한|된|하는|되는|할|될|해|돼|하고|되고|하게|하기|하자|하여|합니다|합니까|됩니다|됩니까"
    r"|하나요|되나요|하니|하죠|되죠|해요|돼요|해서|하신|하시|해야|해졌|해진"
)
#: Words that say something was talked about, after "where".
_TALK = (
    r"(?:이야기|이야길|얘기|얘길|논의|언급|다루|다뤘|다룬|다뤄|말했|말한|말하|나왔|나온|나오|거론"
    r"|토론|토의|대화|의논)"
)
#: "where" ("어디서", "어느 회의에서").
_WHERE = r"(?:어디(?:에)?서|어디에|어느 (?:회의|미팅|부분|대목|자리)에서)"
#: "about" after the entity ("예산에 대해").
_ABOUT = r"에 ?(?:대해서?|대한|대하여|관해서?|관한|관하여)"
#: Asking to be told ("주세요", "줘", "줄래요").
_PLEASE = (
    r"(?:주세요|줘요|줘|줄래요?|주실래요|주시겠어요|주시겠습니까|주십시오"
    r"|주실 수 있(?:나요|을까요|어요|습니까)|줄 수 있(?:어|나요|을까요?|어요))"
)
#: "what" with its particle and copula ("뭐였나요", "무엇인가요", "뭐라고").
_WHAT = (
    r"(?:무엇|뭐)(?:(?:이었|였)" + _FINAL + r"?|(?:이|가|을|를)?(?:이라고|라고|야|예요|에요"
    r"|이에요|지요|지|죠|인가요|인가|인지|일까요?|입니까|이야)?)"
)
#: Numbers said before the hour of a clock ("세 시"): a part of the day before one belongs to
#: the clock time.
_NO_HOUR = r"(?! ?(?:\d|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열) ?시)"
#: The hours "밤" (night) puts past noon: six to eleven ("밤 10시", but "밤 2시").
_EVENING_HOUR = r"(?:[6789]|1[01]|여섯|일곱|여덟|아홉|열한|열)(?!\d)"
#: What may follow "시" of a clock time, unlike "시간", "시스템", "시작".
_HOUR_END = r"(?=$|[^\uac00-\ud7a3]|에|부터|쯤|경|정각|까지|이후|이전|전|후|무렵|즈음)"
#: What may follow a week, month or year word ("이번 주에", "지난주부터"), unlike "이번 주제".
_PERIOD_END = r"(?=$|[^\uac00-\ud7a3]|에|의|은|는|도|부터|까지|동안|간|내|중|초|말|엔)"
#: A count and its unit ("3일", "세 시간", "일주일"); a number word and "일" (day) need a
#: space ("세일" is a sale).
_COUNT = r"<N>(?:(?<=\d) ?|(?<!\d) ?(?!일)|(?<!\d) )<UNIT>"
#: "before" of "3일 전" ("전에", "전부터"), not "전체".
_BEFORE = r"전(?=$|[^\uac00-\ud7a3]|에|부터|까지|의|쯤|께|즈음)"
#: The particles a time word takes ("월요일에", "지난주의"): part of the time expression, or
#: they would be a scope word, and "월요일에" a question about the whole memory.
_AT = r"(?:에는|에도|에서|에|엔|은|는|의|도|쯤|경|까지)?"


def _time(words: str) -> str:
    """A time word (``words``) with the particles it may take."""
    return rf"(?:{words}){_AT}"


def _noun(stem: str) -> str:
    """``stem`` with the particles it may take."""
    return stem + _ON_NOUN


def _verb(stem: str) -> str:
    """A 하다 noun (``stem``) as a noun or with a verb's endings."""
    return stem + rf"(?:{_DO}|{_ON_NOUN})"


KOREAN = Lexicon(
    summary=(
        _verb(r"요약"),
        _verb(r"정리"),
        _verb(r"총정리"),
        _noun(r"개요"),
        r"간추(?:려|린|리)",
        r"간략(?:히|하게|한)",
        r"간단(?:히|하게|한)",
        r"짧게",
        r"한마디로",
        r"한 줄로",
        _noun(r"줄거리"),
        _verb(r"브리핑"),
        r"훑어",
        r"(?:무엇|뭐)에 ?(?:대해서?|관해서?)",
        r"(?:무엇|뭐)(?:을|를)? (?:논의|이야기|얘기|다뤘|결정|말)",
        r"(?:무슨|어떤) (?:이야기|얘기|내용|말|논의|주제|일|것|결정|안건)" + _ON_NOUN,
    ),
    breadth=(
        r"주요",
        r"주된",
        _noun(r"핵심"),
        _noun(r"요점"),
        r"중요(?:한|했던) (?:것|거|게|점|내용|사항|부분|결정|포인트)" + _ON_NOUN,
        r"큰 ?그림",
        r"전반적(?:으로|인)?",
        r"전체적(?:으로|인)?",
        r"대략(?:적으로|적인)?",
        r"대체로",
        r"대강",
        _noun(r"흐름"),
        _noun(r"경과"),
        r"시간 ?순(?:서)?(?:으로|대로)?",
        r"처음부터 끝까지",
        r"단계별(?:로)?",
        r"다음 단계" + _ON_NOUN,
        r"할 ?일(?: 목록)?" + _ON_NOUN,
        r"액션 ?아이템" + _ON_NOUN,
        r"후속 ?조치" + _ON_NOUN,
        _noun(r"하이라이트"),
        _noun(r"포인트"),
    ),
    scope=(
        _PARTICLE,
        _noun(r"회의(?:록)?(?!실|장)"),
        _noun(r"미팅"),
        _noun(r"모임"),
        _verb(r"논의"),
        _verb(r"토론"),
        _verb(r"토의"),
        _verb(r"협의"),
        _verb(r"의논"),
        _verb(r"대화"),
        _verb(r"이야기"),
        _verb(r"얘기"),
        r"이야길|얘길",
        _noun(r"말씀"),
        r"말(?:" + _DO + r")",
        _verb(r"언급"),
        _verb(r"거론"),
        _verb(r"결정"),
        _verb(r"합의"),
        _verb(r"설명"),
        _noun(r"채팅"),
        _noun(r"통화"),
        _noun(r"세션"),
        _noun(r"팀"),
        _noun(r"그룹"),
        _noun(r"다들"),
        _noun(r"모두"),
        _noun(r"전부"),
        _noun(r"전체"),
        r"모든",
        r"(?<!\w)다(?= )",
        _noun(r"주제"),
        _noun(r"안건"),
        _noun(r"의제"),
        _noun(r"화제"),
        _noun(r"토픽"),
        _noun(r"논점"),
        _noun(r"이슈"),
        _noun(r"내용"),
        _noun(r"소식"),
        _noun(r"사항"),
        _noun(r"사안"),
        _noun(r"결론"),
        _noun(r"결과"),
        _noun(r"성과"),
        _noun(r"메모"),
        _noun(r"기록"),
        _noun(r"노트"),
        _noun(r"참석자"),
        _noun(r"참가자"),
        _noun(r"사람들"),
        _noun(r"프로젝트"),
        _noun(r"이번"),
        r"(?<!\w)(?:것|거|게|점|부분)" + _ON_NOUN + _END,
        r"(?<!\w)(?:우리|저희)(?:가|는|의|끼리)?",
        r"(?<!\w)(?:제가|내가|저에게|나에게|저한테|나한테)",
        _WHAT,
        r"뭔(?:가요|가|지|데)?",
        r"뭘",
        r"무슨",
        r"어떤",
        r"어떻게",
        r"어땠",
        r"어떠(?:했|한)?",
        r"어느",
        r"얼마(?:나)?",
        r"언제(?:로|쯤|까지)?",
        r"누가|누구(?:와|랑|한테|에게|를|의)?",
        r"어디(?:예요|에요|야|죠|인가요|입니까)?",
        r"(?<!\w)(?:대해서?|대한|대하여|관해서?|관한|관하여)" + _END,
        r"다(?:뤘|루었|룬|루는|룰|뤄|루)" + _FINAL + r"?",
        r"나(?:왔|온|오는|올|와)" + _FINAL + r"?",
        r"(?<!\w)정(?:했|한|해진|해졌|하셨)" + _FINAL + r"?",
        r"내(?:렸|린|려진|려졌|려)" + _FINAL + r"?",
        r"(?:했|하였|됐|되었|했었|였|이었|있었|없었)" + _FINAL + _END,
        r"(?<!\w)(?:있|없)" + _FINAL + _END,
        r"(?:하나요|합니까|합니다|해요|하죠|하니|되나요|됩니까|됩니다|돼요|인가요|인가|입니까|입니다"
        r"|이에요|예요|에요|이죠|일까요|인지)" + _END,
        r"(?<=" + _PAST + r")" + _FINAL + _END,
        r"(?:알려|보여|말해|설명해|가르쳐|들려|찾아) ?" + _PLEASE + r"?",
        _PLEASE,
        r"(?<!\w)해 ?" + _PLEASE,
        r"(?<!\w)씨(?:께서|에게|한테|가|는|의|도|를)?" + _END,
        r"부탁(?:해요|해|합니다|드립니다|드려요|드릴게요)?",
        _ABOUT,
        r"관련(?:된|한|해서)?",
        r"\d+(?:에는|에서|에|쯤|경)" + _END,  # "14:05에": the digits are the time's
    ),
    future=(r"다음", r"향후", r"앞으로", r"내일", r"내년", r"다가오는", r"예정"),
    recency=(
        r"새로운 ?(?:소식|내용|것|거|게|일|사항|정보|변화|업데이트)?",
        r"새 소식",
        r"새로 (?:나온|생긴|바뀐|추가된|올라온)",
        r"최신",
        r"최근(?:에)?(?: (?:소식|내용|업데이트|변경 ?사항))?",
        r"요즘",
        r"근황",
        _noun(r"업데이트"),
        r"변경 ?사항",
        r"(?:바뀐|달라진|변한) ?(?:것|거|게|점|내용)?",
        r"(?:뭐|무엇)(?:가|이)? (?:바뀌었|바뀐|바뀌|달라졌|달라진|변했|변한)",
        r"놓친 ?(?:것|거|게|내용)",
        r"(?:지난|저번|마지막|최근) ?(?:번 )?(?:회의|미팅|모임|통화)",
        r"방금",
    ),
    entity_leads=(_WHERE + r" (?=[^?.!]*" + _TALK + r")",),
    # "예산에 대해 어디서 이야기했나요", "예산 얘기는 어디서 나왔어": the entity first.
    entity_trails=(
        r"(?:"
        + _ABOUT
        + r"|이|가|은|는|을|를|도)? ?(?:(?:이야기|얘기|논의|말|언급)(?:은|는|이|가|를|을)? )?"
        + _WHERE
        + r"(?= ?"
        + _TALK
        + r")",
        _ABOUT + r" ?언제(?= ?" + _TALK + r")",
        r"(?:이|가)? ?언급된 (?:곳|부분|대목|데)",
        _ABOUT + r" (?:좀 )?(?:알려|말해|설명해|얘기해|이야기해) ?" + _PLEASE,
        r"(?:에 ?(?:대한|관한)|관련) 모든 (?:것|거|내용|언급|이야기|얘기)",
        _ABOUT + r" (?:우리가 )?(?:아는|알고 있는) (?:것|거|내용)",
    ),
    name_leads=(),
    # "김민수 씨는 누구예요?": the honorific and the particle go with the cue; at the question's
    # end only ("누구와 이야기했나요" asks something else).
    name_trails=(
        r"(?: ?(?:씨|님))?(?:은|는|이|가|이란|란)? ?누구"
        r"(?:세요|십니까|예요|에요|이에요|인가요|입니까|인지|일까요?|야|지|죠)?(?=[?.!\s]*$)",
    ),
    since=(),
    since_after=(r"부터", r"이후(?:로|에)?", r"이래(?:로)?"),
    # Native numbers count hours and months ("세 시간", "두 달"), Sino-Korean ones the rest
    # ("삼 일"); no "이" (two), which is also "this" ("이 분" this person, "이 주" this week).
    range_inner=(r"부터", r"에서"),
    range_endings=(r"에서",),
    range_closing=(r"까지", r"사이"),
    numbers=_frozen(
        {
            "하나": 1,
            "한": 1,
            "둘": 2,
            "두": 2,
            "셋": 3,
            "세": 3,
            "석": 3,
            "넷": 4,
            "네": 4,
            "다섯": 5,
            "여섯": 6,
            "일곱": 7,
            "여덟": 8,
            "아홉": 9,
            "열": 10,
            "열한": 11,
            "열하나": 11,
            "열두": 12,
            "열둘": 12,
            "스무": 20,
            "스물": 20,
            "서른": 30,
            "몇": 3,
            "일": 1,
            "삼": 3,
            "사": 4,
            "오": 5,
            "육": 6,
            "칠": 7,
            "팔": 8,
            "구": 9,
            "십": 10,
            "십오": 15,
            "이십": 20,
            "삼십": 30,
        }
    ),
    units=_frozen(
        {
            "minute": r"분",
            "hour": r"시간",
            "day": r"일",
            "week": r"주일|주",
            "month": r"개월|달",
            "year": r"년",
        }
    ),
    ago=(r"(?<!\w)" + _COUNT + r" ?" + _BEFORE + _AT,),
    last_n=(
        r"(?:지난|최근|과거|요) ?" + _COUNT + r"(?: ?(?:동안|간|사이|새|이내|내))?" + _AT,
        r"(?<!\w)" + _COUNT + r" ?(?:이내|안|내)" + _AT + _END,
    ),
    # "이틀 전" (two days ago) names a day, as "어제" does.
    days=_frozen(
        {
            0: _time(r"오늘(?!날)|금일"),  # "오늘날" is nowadays
            -1: _time(r"어제|어저께|하루 ?전"),
            -2: _time(r"그저께|그제|이틀 ?전"),
            -3: _time(r"그끄저께|사흘 ?전"),
            -4: _time(r"나흘 ?전"),
        }
    ),
    parts=_frozen(
        {
            "morning": r"(?:아침|오전|새벽)" + _NO_HOUR + _AT,
            "afternoon": r"오후" + _NO_HOUR + _AT,
            "evening": r"저녁" + _NO_HOUR + _AT,
            "night": r"밤" + _NO_HOUR + _AT,
        }
    ),
    day_parts=((_time(r"어젯밤|간밤"), -1, "night"), (_time(r"엊저녁"), -1, "evening")),
    part_joiner=r" ?",
    weekdays=(
        _time(r"월요일"),
        _time(r"화요일"),
        _time(r"수요일"),
        _time(r"목요일"),
        _time(r"금요일"),
        _time(r"토요일"),
        _time(r"일요일"),
    ),
    previous_weekday=(r"(?:지난|저번) ?<WEEKDAY>",),
    periods=_frozen(
        {
            "week": _time(r"주") + _PERIOD_END,
            "month": _time(r"달|월") + _PERIOD_END,
            "year": _time(r"해|년") + _PERIOD_END,
        }
    ),
    # "지난주", "저번 달"; "작년" last year.
    previous_period=(r"(?:지난|저번) ?<PERIOD>", r"작(?=년)<PERIOD>"),
    current_period=(r"(?:이번 ?|(?<!\w)금)<PERIOD>", r"올(?=해)<PERIOD>"),
    # "오후 3시 5분", "15시", "세 시". "반" (half past) keeps the hour: the window is the hour
    # it falls in.
    clock_times=(
        r"(?<!\w)(?:(?:(?:오후|저녁|낮) ?|밤 ?(?=" + _EVENING_HOUR + r"))<PM>"
        r"|(?:오전|아침|새벽|밤) ?)?(?!일 ?시)<HOUR> ?시(?: ?<MINUTE> ?분| ?반)?" + _AT + _HOUR_END,
    ),
    months=tuple(f"{number}월" for number in range(1, 13)),
    month_alone=(r"(?:<YEAR>년 ?)?<MONTH>" + _AT,),
    day_dates=(r"(?:<YEAR>년 ?)?<MONTH> ?<DAY>일" + _AT,),
    spaced=False,
    script=("Hangul",),
)
