"""Chinese cues, Simplified and Traditional (see :mod:`rerank_plus.memory.query.lexicon`).

Written without spaces: each fragment is a whole word or phrase, matched inside the run of
characters. Particles and pronouns (了, 的, 吗, 什么, 我们) are the analysis layer's stop
words; the scope list holds the rest of what a general question says ("一下", "这次", "会上").
"""

from __future__ import annotations

from rerank_plus.memory.query.lexicon.han import AT_QUESTION_END, HAN_MONTHS, han_numbers
from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: The measure word between a number and its unit ("三个小时").
_MEASURE = r"(?:[个個])"
#: Verbs of saying and discussing.
_SAY = (
    r"(?:讨论|討論|谈论|談論|谈到|談到|说到|說到|提到|提及|提起|聊到|讲到|講到|涉及|"
    r"说起|說起|谈|談|说|說|聊|讲|講)"
)

#: "where (do we) talk about": before the entity ("在哪里讨论过预算") or after it
#: ("预算在哪里被提到").
_WHERE_SAID = (
    r"(?:是)?(?:在)?(?:哪里|哪裡|哪儿|哪兒|什[么麼]地方|哪些地方)(?:有人)?(?:被)?"
    + _SAY
    + r"(?:了|[过過]|到)*(?:的)?"
)

#: A part of the day followed by an hour ("下午3点") belongs to the clock time, which it
#: puts in the afternoon, not to the day ("今天下午").
_NO_HOUR = r"(?![\d一二三四五六七八九十两兩])"

CHINESE = Lexicon(
    summary=(
        r"[总總][结結]",
        r"概括",
        r"概述",
        r"概要",
        r"[归歸][纳納]",
        r"[汇匯彙][总總]",
        r"摘要",
        r"小结|小結",
        r"[综綜]述",
        r"回[顾顧]",
        r"复盘|復盤",
        r"梳理",
        r"[简簡]述",
        r"[简簡]要[说說][明一]",
        r"[简簡]单[说說讲講]|簡單[說講]",
        r"列出",
        r"列[举舉]",
        r"[关關]于什[么麼]",
        r"[说說讲講谈談聊]了(?:些)?什[么麼]",
        r"[讨討][论論]了(?:些)?什[么麼]",
        r"[发發]生了(?:些)?什[么麼]",
    ),
    breadth=(
        r"主要",
        r"要[点點]",
        r"重[点點]",
        r"[关關][键鍵](?:[点點]|内容|內容|[问問][题題]|[决決]定)?",
        r"亮[点點]",
        r"核心(?:内容|內容|[观觀][点點]|[问問][题題]|要[点點]|[议議][题題])",
        r"流程",
        r"[经經][过過]",
        r"大[致概]",
        r"整[体體]",
        r"[总總][体體]",
        r"概[况況]",
        r"全貌",
        r"[时時][间間][线線]",
        r"来龙去脉|來龍去脈",
        r"从头到尾|從頭到尾",
        r"始末",
        r"一步一步",
        r"待[办辦]事[项項]",
        r"行[动動][项項]",
        r"下一步",
        r"后续|後續",
    ),
    scope=(
        r"(?:会议|會議)(?!室)",
        r"(?:会议|會議|[讨討][论論])[中里裡]",
        r"群[里裡]",
        r"[开開]会|[开開]會",
        r"会上|會上",
        r"例会|例會",
        r"[讨討][论論]",
        r"[谈談][论論]",
        r"[对對][话話]",
        r"聊天",
        r"群聊",
        r"[通电電][话話]",
        r"[团團][队隊]",
        r"小[组組]",
        r"大家",
        r"所有人",
        r"全部",
        r"所有",
        r"整[个個场場]",
        r"一切",
        r"[话話][题題]",
        r"主[题題]",
        r"[议議][题題]",
        r"[议議]程",
        r"[问問][题題]",
        r"内容|內容",
        r"事[项項]",
        r"事情",
        r"[观觀][点點]",
        r"[决決][定策议議]",
        r"[结結][论論果]",
        r"成果",
        r"共[识識]",
        r"[说說讲講谈談聊提做][了过過]",
        r"[说說讲講谈談聊]一下",
        r"讲讲|講講|说说|說說|聊聊|谈谈|談談",
        r"提到|提及|谈到|談到|说到|說到|讲到|講到|涉及",
        r"介[绍紹]",
        r"一下",
        r"[一几幾两兩三]句[话話]",
        r"[简簡][单單要短]",
        r"做出",
        r"做一?[个個]",
        r"作出",
        r"达成|達成",
        r"[发發]生",
        r"[进進]行",
        r"[这這那本此上]次",
        r"[这這那本此][个個场場]",
        r"哪些",
        r"什[么麼]",
        r"[我你他][们們]的?",
        r"的(?:地方|内容|內容|部分|[时時]候)",
        r"[请請](?=[你您帮幫给給总總概归歸简簡列说說讲講介问問])",
        r"[帮幫][我忙]",
        r"[给給]我",
        r"能不能",
        r"可以",
        r"[谢謝][谢謝]",
        r"一些",
        r"情[况況]",
        r"[项項]目",
        r"研[讨討]会|研討會",
        r"[讲講]座",
        r"[访訪][谈談]",
        r"采[访訪]|採訪",
        r"[辩辯][论論]",
        r"[记記][录錄]",
        r"[纪紀]要",
        r"[笔筆][记記]",
        r"[参參]与者|參與者",
        r"与会者|與會者",
    ),
    future=(
        r"下一?次",
        r"下一?[个個场場]",
        r"接下[来來]",
        r"[将將]来|將來",
        r"未[来來]",
        r"即[将將]",
        r"今后|今後",
    ),
    recency=(
        r"最新",
        r"最近",
        r"近期",
        r"新消息",
        r"新[进進]展",
        r"新[动動]态|新動態",
        r"新情[况況]",
        r"有(?:什[么麼]|啥|没有|沒有)新",
        r"有(?:什[么麼]|啥|哪些)(?:更新|[变變]化|新?[进進]展)",
        r"什[么麼][变變]了",
        r"[错錯]过了什[么麼]|錯過了什麼",
        r"刚才|剛才",
        r"刚刚|剛剛",
        r"(?:最后|最後|上)一?次(?:的)?(?:会议|會議|会|會|[讨討][论論]|[对對][话話]|[通电電][话話])",
    ),
    entity_leads=(
        _WHERE_SAID + r"(?:[关關]于|[关關]於)?",
        r"(?:告[诉訴]我|[说說][说說]|[讲講][讲講]|介[绍紹]一下)(?:[关關]于|[关關]於)",
        r"(?:所有|全部|每次|每一次)" + _SAY + r"(?:了|[过過]|到)*",
    ),
    entity_trails=(_WHERE_SAID,),
    name_leads=(r"[谁誰]是",),
    # "张伟是谁": only at the question's end ("方案是谁提出的" asks who did something)
    name_trails=(r"是[谁誰](?:呀|啊|呢)?" + AT_QUESTION_END,),
    since=(r"自从|自從", r"自", r"从|從"),
    range_opening=(r"从|從", r"自"),
    range_inner=(r"到", r"至"),
    range_closing=(r"之间|之間", r"期间|期間", r"为止|為止"),
    numbers=_frozen(han_numbers()),
    units=_frozen(
        {
            "minute": r"分[钟鐘]|分",
            "hour": r"小[时時]|[钟鐘][头頭]",
            "day": r"天|日",
            "week": r"星期|礼拜|禮拜|周|週",
            "month": r"[个個]月",
            "year": r"年",
        }
    ),
    ago=(r"<N>" + _MEASURE + r"?<UNIT>(?:[以之]?前)",),
    last_n=(
        r"(?:在)?(?:[过過]去|最近|近)(?:的)?<N>" + _MEASURE + r"?<UNIT>(?:[里裡内內中])?",
        r"<N>" + _MEASURE + r"?<UNIT>(?:以[来來]|[内內])",
    ),
    days=_frozen({0: r"今天|今日", -1: r"昨天|昨日", -2: r"前天"}),
    parts=_frozen(
        {
            "morning": r"(?:早上|上午|早晨)" + _NO_HOUR,
            "afternoon": r"下午" + _NO_HOUR,
            "evening": r"(?:晚上|傍晚)" + _NO_HOUR,
            "night": r"夜里|夜裡|夜[间間]|深夜|半夜",
        }
    ),
    day_parts=(
        (r"今早", 0, "morning"),
        (r"今晚", 0, "evening"),
        (r"昨晚", -1, "evening"),
        (r"昨夜", -1, "night"),
    ),
    part_joiner=r"(?:的)?",
    weekdays=(
        r"星期一|礼拜一|禮拜一|[周週]一",
        r"星期二|礼拜二|禮拜二|[周週]二",
        r"星期三|礼拜三|禮拜三|[周週]三",
        r"星期四|礼拜四|禮拜四|[周週]四",
        r"星期五|礼拜五|禮拜五|[周週]五",
        r"星期六|礼拜六|禮拜六|[周週]六",
        r"星期[日天]|礼拜[日天]|禮拜[日天]|[周週][日天]",
    ),
    # "上周一" is Monday of last week, not the last Monday: it reads as last week.
    previous_weekday=(),
    periods=_frozen({"week": r"星期|礼拜|禮拜|周|週", "month": r"[个個]?月", "year": r"年"}),
    previous_period=(r"上(?:一)?[个個]?<PERIOD>", r"去(?=年)<PERIOD>"),
    current_period=(r"[这這本](?:一)?[个個]?<PERIOD>", r"今(?=年)<PERIOD>"),
    clock_times=(
        r"(?:上午|早上|(?:下午|晚上)<PM>)?<HOUR>[点點](?:<MINUTE>分?)?(?:[钟鐘])?",
        r"<HOUR>:<MINUTE>",
    ),
    since_after=(r"以[来來]", r"起", r"[开開]始", r"之后|之後", r"以后|以後"),
    months=HAN_MONTHS,
    month_alone=(r"(?:<YEAR>年)?<MONTH>(?:份)?",),
    day_dates=(r"(?:<YEAR>年)?<MONTH><DAY>[日号號]",),
    spaced=False,
    script=("Han",),
)
