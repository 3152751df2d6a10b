"""bench/alternate.py reads each run's figures (a RESULT line, or the human table of older bench revisions)
and sums the runs up per revision."""

from bench.alternate import figures, summary

TABLE_SINCE_AF1CF23 = """\
  repeat 1: service 612 matches/s, engine 1,071 matches/s, ratio 0.57
Nacho Pile bot league: 8 bots, tables of 4, 3 rounds x 300 sittings = 900 matches a league, \
2 worker processes, PostgreSQL + Redis
medians of 1 repeats:
  service: played and recorded                   701 matches/s
  service: played, recorded and rated            612 matches/s   (to the last rating)
  engine alone, 2 processes                    1,071 matches/s
  service / engine, repeat by repeat            0.57   (target >= 0.50)
  stored record size                             251 bytes a match
"""

TABLE_OF_FD5E143 = """\
  service (played, recorded and rated)         540 matches/s   (median of 5)
  engine alone, 2 processes                  1,080 matches/s
  service / engine                            0.50   (target >= 0.50)
  stored record size                           262 bytes a match
"""


def test_the_last_result_line_gives_the_figures():
    output = (
        TABLE_SINCE_AF1CF23
        + "RESULT ratio=0.5714 service=612.0 engine=1071.5\nRESULT ratio=0.6 service=600\n"
    )

    assert figures(output) == {"ratio": 0.6, "service": 600.0}


def test_without_a_result_line_the_human_tables_of_bot_league_are_read():
    assert figures(TABLE_SINCE_AF1CF23) == {
        "ratio": 0.57,
        "service": 612.0,
        "engine": 1071.0,
        "recorded": 701.0,
        "size": 251.0,
    }
    assert figures(TABLE_OF_FD5E143) == {"ratio": 0.5, "service": 540.0, "engine": 1080.0, "size": 262.0}
    assert figures("Traceback (most recent call last):\n") == {}


def test_the_summary_gives_median_and_range_per_revision_and_the_difference_of_medians():
    runs = {
        "before": [
            {"ratio": 0.55, "service": 600.0},
            {"ratio": 0.59, "service": 640.0},
            {"ratio": 0.57, "service": 610.0},
        ],
        "after": [{"ratio": 0.61, "service": 650.0}, {"ratio": 0.6, "service": 630.0}, {"ratio": 0.62}],
    }

    assert summary(runs) == [
        "figure                before: median [range]           after: median [range]        after − before",
        "ratio                 0.57 [0.55 – 0.59] n=3           0.61 [0.6 – 0.62] n=3         +0.04 (+7.0%)",
        "service                  610 [600 – 640] n=3             640 [630 – 650] n=2           +30 (+4.9%)",
    ]
