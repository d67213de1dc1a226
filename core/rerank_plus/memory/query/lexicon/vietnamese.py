"""Vietnamese cues (see :mod:`rerank_plus.memory.query.lexicon`).

Words are written a syllable apart, and folding takes the tones away ("họp" reads "hop",
"qua" and "về" read "qua" and "ve"), so most syllables are, folded, words of other languages:
every cue here is two syllables or more ("cuộc họp", "hôm qua"), never one short syllable
alone. "đ" does not fold, and users who type without accents write "d": it is ``[dđ]``,
except where the "d" spelling is another language's words ("vấn đề" as "van de" is Dutch
and French, "đề cập" as "de cap" Spanish).
"từ" (since) folds to French, Italian and Spanish "tu", so it counts only inside a Vietnamese
time expression, which takes it in ("từ hôm qua"). "thứ hai" is Monday and the second: a
weekday follows a lead word ("vào thứ hai") or no word. "tháng sáu" (June) and "tháng sau"
(next month) fold alike: June is written in digits.
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: "từ" (since) before a time the lexicon reads: the expression takes it in ("từ hôm qua").
_FROM = r"(?:từ )?"

#: "từ" (since, from) where a time follows: alone, it is French and Italian "tu".
_SINCE = (
    r"từ(?= (?:hôm|bữa|ngày|tuần|tháng|năm|thứ|chủ nhật|sáng|chiều|tối|trưa|[dđ]êm|buổi"
    r"|lúc|vào|khoảng|\d))"
)

#: What may lead a weekday: a word of time ("từ", "đến": a range's ends), or none ("thứ hai"
#: after a noun is "the second").
_ON = r"(?:(?:vào|hôm|ngày|từ|đến|tới|giữa|sáng|chiều|tối|trưa|bữa|cả) |(?<!\w\s))"

#: Talking about something ("nói", "thảo luận", "nhắc").
_TALK = r"(?:nói|bàn|thảo luận|nhắc|đề cập|trao [dđ]ổi|bàn bạc|bàn luận|nói chuyện)"

#: Who talks ("chúng ta đã nói"), before _TALK.
_WHO = r"(?:(?:chúng ta|chúng tôi|mọi người|có ai|họ) )?(?:(?:[dđ]ã|có) )?"

#: What may lead a clock time ("lúc 3 giờ", "từ 9 giờ đến 11 giờ").
_AT = r"(?:từ lúc|từ|đến|tới|lúc|vào lúc|vào|khoảng)"

VIETNAMESE = Lexicon(
    summary=(
        r"tóm tắt",
        r"tóm lược",
        r"tóm gọn",
        r"tóm lại",
        r"tổng kết",
        r"tổng hợp",
        r"sơ lược",
        r"khái quát",
        r"[dđ]iểm qua",
        r"liệt kê",
        r"ngắn gọn",
        r"(?:về|nói|bàn|thảo luận|trao [dđ]ổi) (?:về )?(?:cái |chuyện |những |các )?(?:gì"
        r"|vấn đề gì|chuyện gì|[dđ]iều gì)",
        r"những (?:gì|[dđ]iều gì|vấn đề gì|chuyện gì)",
    ),
    breadth=(
        r"(?:[dđ]iểm|ý|vấn đề|nội dung|chủ [dđ]ề|quyết [dđ]ịnh|kết luận|bước|thông tin"
        r"|[dđ]iều|việc) (?:chính|quan trọng|then chốt|cốt lõi|nổi bật|chủ yếu)(?: nhất)?",
        r"tổng quan",
        r"toàn cảnh",
        r"bức tranh (?:chung|tổng thể)",
        r"nhìn chung",
        r"nói chung",
        r"tổng thể",
        r"trọng tâm",
        r"từ [dđ]ầu [dđ]ến cuối",
        r"từng bước(?: một)?",
        r"(?:theo )?(?:thứ tự|trình tự) thời gian",
        r"dòng thời gian",
        r"diễn biến",
        r"(?:các |những )?bước tiếp theo",
        r"việc cần làm",
        r"[dđ]ầu việc",
    ),
    scope=(
        r"cuộc họp",
        r"buổi họp",
        r"phiên họp",
        r"(?:cuộc|buổi) gặp(?: gỡ| mặt)?",
        r"hội nghị",
        r"hội thảo",
        r"thảo luận",
        r"bàn bạc",
        r"bàn luận",
        r"trao [dđ]ổi",
        r"(?:cuộc )?trò chuyện",
        r"nói chuyện",
        r"cuộc gọi",
        r"(?:cuộc )?hội thoại",
        r"chúng ta",
        r"chúng tôi",
        r"mọi người",
        r"(?:cả )?nhóm",
        r"[dđ]ội ngũ",
        r"thành viên",
        r"người tham (?:gia|dự)",
        r"toàn bộ",
        r"tất cả",
        r"mọi thứ",
        r"chủ [dđ]ề",
        r"vấn đề",
        r"nội dung",
        r"[dđ]iểm",
        r"quyết [dđ]ịnh",
        r"kết luận",
        r"kết quả",
        r"thỏa thuận",
        r"thống nhất",
        r"[dđ]ồng ý",
        r"nghị sự",
        r"chính",
        r"quan trọng",
        r"then chốt",
        r"chủ yếu",
        r"nổi bật",
        r"đề cập",
        r"nhắc (?:[dđ]ến|tới)",
        r"[dđ]ưa ra",
        r"[dđ]ạt [dđ]ược",
        r"xảy ra",
        r"diễn ra",
        r"thông qua",
        r"dự án",
        r"biên bản",
        r"ghi chú",
        r"ghi chép",
        r"vui lòng",
        r"làm ơn",
        r"giúp(?: tôi| mình| em)?",
        r"cho (?:tôi|mình|em) (?:biết|xem)",
        r"kể (?:lại|cho)",
    ),
    future=(
        r"tiếp theo",
        r"sắp tới",
        r"kế tiếp",
        r"tương lai",
        r"lần tới",
        r"(?:tuần|tháng|năm|lần|cuộc họp) (?:sau|tới)",
    ),
    recency=(
        r"(?:có )?(?:gì|những gì|[dđ]iều gì|chuyện gì|tin gì|cái gì) mới",
        r"mới nhất",
        r"gần [dđ]ây",
        r"dạo này",
        r"mới [dđ]ây",
        r"(?:cuộc|buổi) họp (?:gần [dđ]ây nhất|gần nhất|vừa rồi|vừa qua|lần trước)",
        r"(?:tin tức|cập nhật) mới",
        r"(?:có )?(?:gì|những gì|[dđ]iều gì) (?:[dđ]ã )?thay [dđ]ổi",
        r"thay [dđ]ổi gì",
        r"bỏ lỡ (?:những )?(?:gì|[dđ]iều gì|chuyện gì)",
    ),
    entity_leads=(
        r"(?:ở )?(?:chỗ|[dđ]oạn|phần|lúc|khi|buổi|cuộc họp) nào "
        + _WHO
        + _TALK
        + r"(?: (?:về|[dđ]ến|tới))? ",
        r"ở [dđ]âu " + _WHO + _TALK + r"(?: (?:về|[dđ]ến|tới))? ",
        # "chúng ta đã nói về X ở đâu": the place asked for comes last
        _WHO + _TALK + r"(?: (?:về|[dđ]ến|tới))? (?=[^?.!]*(?<!\w)ở [dđ]âu(?!\w))",
        r"tất cả (?:những |các )?(?:lần|chỗ|[dđ]oạn) (?:nhắc|đề cập|nói)(?: (?:về|[dđ]ến"
        r"|tới))? ",
        r"mọi (?:thứ|[dđ]iều|chuyện) (?:về|liên quan [dđ]ến) ",
        r"(?:chúng ta|ta) biết (?:gì|những gì) về ",
    ),
    entity_trails=(r"(?:[dđ]ã )?(?:[dđ]ược )?" + _TALK + r"(?: (?:về|[dđ]ến|tới))? ở [dđ]âu",),
    name_leads=(r"ai là ",),
    # "Sarah là ai?", the usual order: at the end ("là ai" inside asks something else)
    name_trails=(r"là ai(?: (?:vậy|thế|nhỉ|thế nhỉ|ạ|đấy))?(?= ?[?.!]*$)",),
    since=(
        _SINCE,
        r"kể từ",
        r"bắt [dđ]ầu từ",
        r"tính từ",
    ),
    since_after=(
        r"(?:[dđ]ến|tới) (?:nay|giờ|bây giờ|hiện tại)",
        r"trở lại [dđ]ây",
    ),
    range_opening=(_SINCE, r"giữa"),
    range_inner=(r"đến", r"tới", r"và"),
    numbers=_frozen(
        {
            "một": 1,
            "hai": 2,
            "ba": 3,
            "bốn": 4,
            "năm": 5,
            "sáu": 6,
            "bảy": 7,
            "bẩy": 7,
            "tám": 8,
            "chín": 9,
            "mười": 10,
            "mười hai": 12,
            "hai mươi": 20,
            "ba mươi": 30,
            "vài": 3,
        }
    ),
    units=_frozen(
        {
            "minute": r"phút",
            "hour": r"giờ|tiếng(?: [dđ]ồng hồ)?",
            "day": r"ngày",
            "week": r"tuần(?: lễ)?",
            "month": r"tháng",
            "year": r"năm",
        }
    ),
    ago=(r"<N> <UNIT> (?:về )?trước", r"cách [dđ]ây <N> <UNIT>(?: (?:về )?trước)?"),
    last_n=(
        r"trong (?:<N> )?<UNIT> (?:qua|vừa qua|gần [dđ]ây|gần nhất|trở lại [dđ]ây)",
        r"<N> <UNIT> (?:qua|vừa qua|gần [dđ]ây|gần nhất)",
        r"<UNIT> (?:qua|vừa qua)",
    ),
    days=_frozen(
        {
            0: _FROM + r"(?:ngày )?hôm nay|" + _FROM + r"bữa nay",
            -1: _FROM + r"(?:ngày )?hôm qua|" + _FROM + r"bữa qua",
            -2: _FROM + r"(?:ngày )?hôm kia",
        }
    ),
    parts=_frozen(
        {
            "morning": r"buổi sáng",
            "afternoon": r"buổi chiều",
            "evening": r"buổi tối",
            "night": r"ban [dđ]êm",
        }
    ),
    day_parts=(
        (_FROM + r"(?:buổi )?sáng (?:nay|hôm nay)", 0, "morning"),
        (_FROM + r"(?:buổi )?(?:chiều|trưa) (?:nay|hôm nay)", 0, "afternoon"),
        (_FROM + r"(?:buổi )?tối (?:nay|hôm nay)", 0, "evening"),
        (_FROM + r"(?:buổi )?sáng (?:hôm )?qua", -1, "morning"),
        (_FROM + r"(?:buổi )?(?:chiều|trưa) (?:hôm )?qua", -1, "afternoon"),
        (_FROM + r"(?:buổi )?tối (?:hôm )?qua", -1, "evening"),
        (_FROM + r"[dđ]êm (?:hôm )?qua", -1, "night"),
    ),
    part_joiner=r" (?:vào |lúc )?",
    weekdays=(
        _ON + r"thứ (?:hai|2)",
        _ON + r"thứ (?:ba|3)",
        _ON + r"thứ (?:tư(?! (?:ưu|của))|4)",  # "theo thứ tự" (in order) folds alike
        _ON + r"thứ (?:năm|5)",
        _ON + r"thứ (?:sáu|6)",
        _ON + r"thứ (?:bảy|bẩy|7)",
        r"(?:(?:vào|hôm|ngày|từ|sáng|chiều|tối|trưa|bữa) )?chủ nhật",
    ),
    previous_weekday=(r"<WEEKDAY> (?:tuần trước|tuần rồi|vừa rồi|vừa qua)",),
    periods=_frozen({"week": r"tuần(?: lễ)?", "month": r"tháng", "year": r"năm"}),
    previous_period=(r"(?:(?:từ|trong|vào) )?<PERIOD> (?:trước|ngoái|rồi|vừa rồi)",),
    current_period=(r"(?:(?:từ|trong|vào) )?<PERIOD> (?:này|nay)",),
    clock_leads=(r"lúc", r"vào lúc", r"từ lúc", r"khoảng"),
    clock_times=(
        _AT + r" <HOUR> giờ(?: <MINUTE>(?: phút)?)?(?: sáng)?",
        r"(?:" + _AT + r" )?<HOUR> giờ(?: <MINUTE>(?: phút)?)? sáng",
        r"(?:" + _AT + r" )?<HOUR> giờ(?: <MINUTE>(?: phút)?)? (?:chiều|tối|trưa)<PM>",
        r"(?:" + _AT + r" )?<HOUR> ?h(?:<MINUTE>)? (?:chiều|tối|trưa)<PM>",
        r"<HOUR> giờ <MINUTE>(?: phút)?",
    ),
    months=(
        r"tháng (?:0?1|một|giêng)",
        r"tháng (?:0?2|hai)",
        r"tháng (?:0?3|ba)",
        r"tháng (?:0?4|tư|bốn)",
        r"tháng (?:0?5|năm)",
        r"tháng 0?6",
        r"tháng (?:0?7|bảy|bẩy)",
        r"tháng (?:0?8|tám)",
        r"tháng (?:0?9|chín)",
        r"tháng (?:10|mười)",
        r"tháng (?:11|mười một)",
        r"tháng (?:12|mười hai|chạp)",
    ),
    month_alone=(
        r"(?:từ|trong|vào|[dđ]ầu|cuối|giữa|hồi|suốt) <MONTH>(?:,? (?:năm )?<YEAR>)?",
        r"<MONTH>,? (?:năm )?<YEAR>",
    ),
    day_dates=(r"(?:(?:từ|vào) )?(?:ngày )?<DAY> <MONTH>(?:,? (?:năm )?<YEAR>)?",),
)
