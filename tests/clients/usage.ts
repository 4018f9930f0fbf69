// A portal's use of the TypeScript types openapi-typescript generates from
// openapi.yaml. tests/clients/run.sh copies this file beside the generated
// openapi.d.ts and type-checks it with `tsc --noEmit --strict`: each game's
// own types and operations must be there, and the @ts-expect-error lines
// must be errors (a wrong game's state, side or termination does not fit).
import type { components, operations, paths } from "./openapi";

type Schemas = components["schemas"];

const start: Schemas["ReversiState"] = {
  board: ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"],
  to_move: "black",
};

type BotMoveBody = operations["reversiBotMove"]["requestBody"]["content"]["application/json"];
type BotMoveAnswer = operations["reversiBotMove"]["responses"][200]["content"]["application/json"];

// Fields with a default (`states`, `top`) or none (`max_depth`) are optional.
export const plain: BotMoveBody = { state: start };
export const numbered: BotMoveBody = { state: start, level: 1, seed: 1 };
export const numberedAsText: Schemas["ReversiBotMoveRequest"] = { state: start, level: "1", seed: 1 };
export const named: Schemas["ReversiBotMoveRequest"] = { state: start, level: "strong", time_ms: 200 };
export const play: Schemas["ReversiPlayRequest"] = { state: start, move: "d3" };
export const replay: Schemas["ReversiReplayRequest"] = { record: "f5d6c3" };
export const analyze: Schemas["ReversiAnalyzeRequest"] = { state: start };

export function describe(answer: BotMoveAnswer): string {
  const move: Schemas["ReversiMove"] = answer.move;
  const outcome: Schemas["ReversiOutcome"] = answer.outcome;
  const termination: Schemas["ReversiTermination"] | undefined = outcome.termination;
  const stopped: Schemas["StopReason"] | undefined = answer.search.stopped_by ?? undefined;
  const score = outcome.score ? `${outcome.score.black}-${outcome.score.white}` : "";
  return `${move.notation} ${outcome.status} ${termination ?? ""} ${score} ${stopped ?? ""}`;
}

// The per-game path and the operation are the same type.
export const sameOperation: paths["/v1/games/reversi/bot-move"]["post"] = {} as operations["reversiBotMove"];

export const camp: Schemas["HalmaState"]["camp_rule"] = "basic";
export const halmaEnd: Schemas["HalmaTermination"] = "ply_limit";

// @ts-expect-error a Reversi move is no Halma move (it has no path)
export const wrongGame: Schemas["HalmaMove"] = {} as Schemas["ReversiMove"];
// @ts-expect-error Reversi has no side "red"
export const wrongSide: Schemas["ReversiOutcome"]["winner"] = "red";
// @ts-expect-error Reversi does not end at a ply limit
export const wrongEnd: Schemas["ReversiTermination"] = "ply_limit";
// @ts-expect-error Halma has no camp rule "strict"
export const wrongRule: Schemas["HalmaState"]["camp_rule"] = "strict";
