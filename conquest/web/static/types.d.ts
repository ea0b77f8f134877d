// The shapes the page's modules share, for the type check only (tsconfig.json, `npm run typecheck`): the JSON the
// server sends (GET /api/games/{id}, the board a ruleset draws, the story's log lines, the odds) and the element
// builders' arguments. No page loads this file; the modules name these types in their JSDoc comments. Fields the
// page only passes on or shows as text are typed loosely (`unknown`, index signatures): the server owns them.

/** A child of an element built with h(), s() or el(): nodes, text, and nested lists; null/undefined/false skipped. */
type Kid = Node | string | number | boolean | null | undefined | Kid[];
/** Attributes of h(), s() or el(): `on…` are listeners, `text` (h, el) the text; null/undefined/false left out. */
type Attrs = Record<string, string | number | boolean | null | undefined | ((ev: any) => unknown)>;

type SeatIndex = number;
/** Where a view box is: [x, y, width, height] in board units. */
type Box = number[];

interface SeatInfo { seat: SeatIndex; name: string; kind: string; token?: string; link?: string }

interface GameInfo {
  id: string;
  title: string;
  ruleset: string;
  seats: SeatInfo[];
  /** a seat, "chance", or null when the game is over */
  to_move: SeatIndex | "chance" | null;
  to_move_name?: string | null;
  to_move_kind?: string | null;
  over: boolean;
  step: number;
  revision: number;
  /** by seat, when the game is over */
  scores?: number[] | null;
  /** by seat: 1 a win, a share of a win, 0 a loss */
  result?: number[] | null;
  created_at?: string;
  /** the variant file's name when the game is played with one (null: the rules' own data) */
  variant?: string | null;
  /** the game's pace (GET /api/games/{id}, the lobby's lists) */
  pace?: Pace | null;
}

/** A game's pace: live, or turn-based with a deadline for each turn and what happens at it. */
interface Pace {
  mode: "live" | "turn" | string;
  deadline_seconds?: number;
  /** "computer" (a level plays the turn) or "drop" */
  at_deadline?: string;
  level?: string | null;
  /** the seat whose turn is under way, its deadline (ISO 8601, UTC) and the turns that reached it */
  turn_seat?: SeatIndex | null;
  deadline_at?: string | null;
  missed?: number;
}
/** The pace the new-game form sends. */
interface PaceChoice { mode: string; deadline_seconds?: number; at_deadline?: string; level?: string }

interface LegalAction {
  text: string;
  description: string;
  places: string[];
  /** the question asked before an action that cannot be taken back */
  confirm?: string | null;
  /** true when the action has exact odds (GET /api/games/{id}/odds) */
  odds?: unknown;
}

interface DieRoll {
  who: string;
  die?: string;
  count?: number;
  value?: number | null;
  need?: string | number;
  outcome?: string;
  hit?: boolean;
  seat?: SeatIndex;
}

interface BattleRecord {
  attacker: string[];
  defender: string[];
  kind?: string;
  sea?: boolean;
  order?: string;
  press?: string;
  allies?: Record<string, string[]>;
  beyond_calculator?: string[];
}

/** A line of the narrated story (the payload's `log`). */
interface LogEntry {
  /** the narrated line (the notation where the ruleset tells nothing; null when hidden) */
  text: string | null;
  seat: SeatIndex | null;
  /** who acted: the seat's name, or "chance" */
  by: string;
  step: number;
  kind?: string;
  group?: string | null;
  chance?: boolean;
  hidden?: boolean;
  notation?: string | null;
  news?: string;
  tint?: string;
  changed?: string[];
  dice?: DieRoll[];
  round?: number;
  side?: string;
  hits?: number;
  battle?: { name: string; forces: Record<string, string>; attacker: string };
  battle_end?: { result: string; forces?: Record<string, string> };
  final?: { who: string; parts: [string, string | number][]; total?: number | null }[];
}

interface HelpTerm { name?: string; kind?: string; text?: string }

interface MapRegion {
  id: string;
  name?: string;
  kind?: string;
  polygon?: number[][];
  parts?: number[][][];
  center?: number[];
  label_at?: number[];
  cell_from_center?: boolean;
}

interface MapLink { a: string; b: string; from: number[]; to: number[]; over?: boolean; bridge?: boolean }

interface BoardMap {
  id: string;
  name?: string;
  viewbox?: Box;
  regions?: MapRegion[];
  links?: MapLink[];
  labels?: boolean;
  axes?: { cols?: [number, string][]; rows?: [number, string][]; size?: number; col_y?: number; row_x?: number };
}

interface Piece {
  kind?: string;
  seat?: SeatIndex | null;
  count?: number;
  icon?: string | number;
  shape?: string;
  color?: string;
  help?: string;
}

interface RegionIcon {
  icon: string;
  key?: string;
  title?: string;
  help?: string;
  fill?: string;
  stroke?: string;
  color?: string;
}

/** What the board says of one region (board.regions[id]). */
interface RegionState {
  name?: string;
  owner?: SeatIndex | null;
  color?: string;
  fill?: string;
  ring?: string;
  label?: string | number;
  hideLabel?: boolean;
  declined?: boolean;
  pieces?: Piece[];
  icons?: RegionIcon[];
  markers?: unknown[];
}

interface Overlay {
  x: number; y: number; w: number; h: number;
  seat?: SeatIndex | null;
  fill?: string;
  class?: string;
  kind?: string;
  title?: string;
  label?: string;
  help?: string;
  round?: number;
  opacity?: number;
  stroke?: string;
  text?: string;
}

interface LegendItem { icon?: string; text: string; shape?: string; fill?: string; help?: string; line?: boolean }

interface Panel {
  seat: SeatIndex;
  title?: string;
  /** [label, value, help?] */
  score?: [string, unknown, string?][];
  holds?: [string, unknown, string?][];
  /** [text, help] */
  badges?: [string, string?][];
}

/** board.compose: the pieces of a space counted before the destination is clicked. */
interface Compose {
  /** region -> piece kind -> how many can go */
  counts: Record<string, Record<string, number>>;
  names: Record<string, string>;
  /** an action with {from}, {to}, {kind}, {n} */
  template: string;
}

interface Legible { name_px: number; count_px: number; unit_px?: number; focus?: string[]; viewbox?: Box }

/** The board a ruleset draws (the payload's `board`). */
interface Board {
  kind?: string;
  layout?: string;
  notation?: string;
  map?: BoardMap;
  colors?: string[];
  regions?: Record<string, RegionState>;
  help?: Record<string, HelpTerm>;
  panels?: Panel[];
  legible?: Legible;
  overlays?: Overlay[];
  legend?: LegendItem[];
  banners?: { title: string; text: string; note?: string; action?: string }[];
  notes?: unknown[];
  compose?: Compose;
  prompt?: { text: string; hits?: { group: string; side: string; left: number } };
  question?: string;
  private?: unknown;
}

/** The seat's view as the ruleset writes it: shown as a tree; a few fields are read by the story. */
interface GameView {
  current?: unknown;
  node?: unknown;
  reaction?: unknown;
  to_move?: unknown;
  battle?: { window?: unknown; attacker?: unknown };
  [field: string]: unknown;
}

/** GET /api/games/{id} (and a move's answer). */
interface GameData {
  game: GameInfo;
  you: { seat: SeatIndex | null; name: string };
  legal?: LegalAction[];
  legal_truncated?: boolean;
  board?: Board | null;
  view?: GameView;
  log: LogEntry[];
  thinking?: SeatIndex | null;
  undo?: number;
  text_board?: string | null;
  answered_for_you?: boolean;
}

/** GET /api/games/{id}/replay?step=k */
interface ReplayData extends GameData {
  step: number;
  total: number;
  to_move: SeatIndex | "chance" | null;
  to_move_name?: string;
}

/** The game page's state of this browser's seat (game.js `live`). */
interface Live {
  gid: string;
  token: string;
  ws: WebSocket | null;
  data: GameData | null;
  selected: string[];
  filter: string;
  steps: Record<string, number | null>;
  open: Set<string>;
  closed: boolean;
  refreshing?: boolean;
  again?: boolean;
  note?: string;
  pieces?: { from: string; n: Record<string, number> } | null;
  /** the "tell me when it is my turn" box, kept across renders */
  notify?: HTMLElement | null;
}

/** An action-list entry: actions that differ only in a count share one (actions.js entries). */
interface ActionEntry { key: string; options: { n: number | null; a: LegalAction }[] }

/** What drawBoard needs besides the board. */
interface BoardOptions {
  places: Set<string>;
  selected: string[];
  onRegion: (id: string) => void;
  seatName: (seat: SeatIndex) => string;
  key: string;
  send?: ((text: string) => unknown) | null;
}

/** A legible board's names and counts, laid out at their size in pixels once it is on the page. */
interface LegibleLayout {
  spec: Legible;
  stacks: { id: string; name: string; cx: number; cy: number; bw: number; bh: number; pieces: Piece[]; icons: RegionIcon[];
    marks: string[] }[];
  top: SVGGElement;
  labels: SVGGElement;
  help: Record<string, HelpTerm>;
  seatName: (seat: SeatIndex) => string;
  col: (seat: SeatIndex | null | undefined) => string;
  focus: Box | null;
}

/** The board's <svg>, with its zoom and layout kept on it. */
interface BoardSvg extends SVGSVGElement {
  legible?: LegibleLayout;
  dragged?: boolean;
  zoomBy?: (f: number, cx?: number, cy?: number) => void;
  setView?: (v: Box) => void;
  resetZoom?: () => void;
}

/** The seats' results of an exact battle (POST /api/odds/{ruleset}, GET /api/games/{id}/odds). */
interface Survivor { probability: number; pieces: string[]; by_realm?: Record<string, string[]> }
interface OddsResult {
  attacker_wins: number;
  defender_holds: number;
  both_destroyed: number;
  attacker_retreats?: number;
  attacker_survivors?: Survivor[];
  defender_survivors?: Survivor[];
  expected_gold_lost?: { attacker?: number; defender?: number };
  expected_rounds?: number;
  reward_gold?: number;
  expected_reward_gold?: number;
  method?: string;
  seconds: number;
  /** the one-line reason of a refusal */
  error?: string;
  [field: string]: unknown;
}
/** GET /api/games/{id}/odds: a battle's odds, or a table of outcomes. */
interface ActionOdds extends Partial<OddsResult> {
  battle?: BattleRecord;
  ruleset?: string;
  outcomes?: { outcome: unknown; probability: number }[];
}

/** A game this browser knows (store.js, localStorage): its id, a seat's token and how to show it. */
interface StoredGame {
  id: string;
  token: string;
  seat: SeatIndex | null;
  name: string;
  title?: string;
  created?: string;
  /** the spectators' link */
  spectator?: string;
}

/** A ruleset's option as GET /api/rulesets describes it. */
interface RulesetOption {
  name: string;
  type: string;
  default: string | number | boolean;
  help: string;
  choices?: (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  /** a document option (a variant of the game's data, YAML or JSON) */
  document?: boolean;
}
interface RulesetInfo {
  id: string;
  title: string;
  summary?: string;
  min_players: number;
  max_players: number;
  default_players: number;
  options: RulesetOption[];
  /** players (as a string) -> the seats' default names */
  seat_names?: Record<string, string[]>;
  /** whether its rules let a player leave (a seat dropped at a deadline) */
  can_drop_seat?: boolean;
}
/** A computer seat kind: a level, a named agent or a policy. */
interface SeatKindInfo { kind?: string; id?: string; spec?: string; label?: string; name?: string; help?: string }
/** GET /api/rulesets */
interface RulesetsData {
  rulesets: RulesetInfo[];
  seat_kinds?: string[];
  levels?: Record<string, SeatKindInfo>;
  agents?: SeatKindInfo[];
  policies?: (SeatKindInfo | string)[];
}

/** GET /api/odds/{ruleset}: what the battle calculator's form offers. */
interface CalculatorInfo {
  title: string;
  error?: string;
  pieces: { id: string; name: string; die: number; cost: number }[];
  cards: { id: string; name: string; bonus: { value: number; piece: string }[] }[];
  guardians: { id: string; name: string; dice: number[]; first_strike?: boolean; heroes_need?: number; reward?: number }[];
  /** the kinds that may enter a dungeon */
  heroes: string[];
  sea_kinds?: string[];
  /** the most pieces of one kind a side may have */
  max_side: number;
}
/** POST /api/odds/{ruleset}'s body as the calculator page builds it. */
interface CalcBody {
  attacker: string[];
  defender: string[];
  ally?: string[];
  dungeon?: boolean;
  sea?: boolean;
  order: string;
  press: string;
  attacker_cards: string[];
  defender_cards?: string[];
  ally_cards?: string[];
}

/** GET /api/account: the logged-in account (null: none) and the session's CSRF token. */
interface AccountInfo { name: string; email?: string | null }
interface AccountState { account: AccountInfo | null; csrf: string | null }
/** GET /api/account/games: the account's seats. */
interface AccountGame {
  id: string; seat: SeatIndex; name: string; title: string; link: string; step: number; over: boolean;
  your_turn?: boolean; to_move?: SeatIndex | "chance" | null; to_move_name?: string | null;
}
/** A seat of a public table (GET /api/lobby). */
interface LobbySeat { seat: SeatIndex; kind: string; player: string | null; rating: number | null }
/** A public table (GET /api/lobby). */
interface LobbyTable {
  id: string; title: string; ruleset: string; players: number; status: string; open_seats: number; rated: boolean;
  rating: number | null; creator: string; options?: Record<string, unknown>; seats: LobbySeat[];
  you?: { seat?: SeatIndex | null; creator?: boolean };
  play?: string | null; watch?: string | null;
  /** the pace its game is played at (absent: live) */
  pace?: Pace | null;
}
/** GET /api/players/{name} */
interface PlayerData {
  name: string;
  ratings: { title: string; rating: number; games: number; mu: number; sigma: number }[];
  history: { at?: string | null; title: string; rank: number; of: number; before: number; after: number }[];
}
