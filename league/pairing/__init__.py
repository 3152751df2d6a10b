"""Pure pairing algorithms for tournaments: plain dataclasses in, plain dataclasses out, no Django.

The ORM seam (written elsewhere) loads players and results, builds `Entrant`s (see
`scoring.entrants_from_history`), calls `generate_round(format, RoundInputs(...))` and saves the `RoundDraft`.
Every rule is documented in docs/tournaments.md.
"""

from league.pairing.brackets import (
    Bracket,
    BracketMatch,
    double_elimination_bracket,
    single_elimination_bracket,
    standard_seed_order,
)
from league.pairing.elimination import (
    FlowPlan,
    OpenCut,
    bracket_champion,
    bracket_feeds,
    bracket_round,
    bracket_rounds,
    bracket_states,
    flow_plan,
    open_cut,
    pod_elimination_plan,
    pod_elimination_round,
    ready_matches,
    table_order,
)
from league.pairing.generate import Format, RoundInputs, generate_round
from league.pairing.placement import (
    MISSED_CUT,
    PlacementGroup,
    bracket_placement,
    cut_placement,
    ordinal,
    placed_standings,
    pod_placement,
)
from league.pairing.quality import round_quality, schedule_balance
from league.pairing.round_robin import circle_rounds, round_robin_round
from league.pairing.scoring import (
    DEFAULT_TIEBREAKS,
    REQUESTED_BYE_SCORES,
    TIEBREAKS,
    Scoring,
    Standing,
    compute_standings,
    default_points,
    entrants_from_history,
    place_points,
)
from league.pairing.stages import StagePlan, cut_problem, largest_cut, threshold_cut, top_cut
from league.pairing.swiss import swiss_round
from league.pairing.tables import table_sizes
from league.pairing.types import (
    DrawTable,
    Entrant,
    PairingError,
    PlayedRound,
    RoundDraft,
    RoundQuality,
    ScheduleBalance,
    TableQuality,
    TableResult,
    TableSpec,
)

__all__ = (
    "DEFAULT_TIEBREAKS",
    "REQUESTED_BYE_SCORES",
    "TIEBREAKS",
    "Bracket",
    "BracketMatch",
    "Entrant",
    "FlowPlan",
    "Format",
    "OpenCut",
    "PairingError",
    "PlacementGroup",
    "PlayedRound",
    "RoundDraft",
    "RoundInputs",
    "RoundQuality",
    "ScheduleBalance",
    "Scoring",
    "StagePlan",
    "Standing",
    "DrawTable",
    "TableQuality",
    "TableResult",
    "TableSpec",
    "bracket_champion",
    "bracket_feeds",
    "bracket_placement",
    "bracket_round",
    "bracket_rounds",
    "bracket_states",
    "circle_rounds",
    "compute_standings",
    "cut_placement",
    "MISSED_CUT",
    "default_points",
    "double_elimination_bracket",
    "entrants_from_history",
    "flow_plan",
    "generate_round",
    "place_points",
    "ready_matches",
    "placed_standings",
    "open_cut",
    "ordinal",
    "pod_elimination_plan",
    "pod_elimination_round",
    "pod_placement",
    "round_quality",
    "round_robin_round",
    "schedule_balance",
    "single_elimination_bracket",
    "standard_seed_order",
    "swiss_round",
    "table_order",
    "table_sizes",
    "threshold_cut",
    "top_cut",
    "cut_problem",
    "largest_cut",
)
