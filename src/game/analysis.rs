//! What every analysis shares, whoever asks for it (`analyze`, its stream,
//! a review): the search run on the position's canonical twin and turned
//! back, and the typed analysis put in the API's words, each move with its
//! chance of winning.

use super::calibration::{self, Known};
use super::symmetry;
use super::wire::{AnalyzeReply, AnalyzedMove};
use super::{Analysis, BotParams, Budget, Game, GameError, Observer, Scope, Symmetry};
use std::any::Any;
use std::sync::{Arc, Mutex, PoisonError};

/// `scope` with its move turned as `symmetry` turns the state.
fn scope_on_twin<G: Game>(scope: &Scope<G::Move>, symmetry: Symmetry) -> Scope<G::Move> {
    Scope {
        top: scope.top,
        include: scope
            .include
            .as_ref()
            .map(|mv| G::transform_move(mv, symmetry)),
    }
}

/// `G::analyze_scope` run, as every analysis is, on the state's canonical
/// twin (the scope's move turned to it), its moves and lines turned back to
/// the state; with it, the analysis of each depth the search completed on
/// the way (shallowest first, each turned back too), for a caller that
/// weighs a move over more than the last depth (a review). An observer the
/// budget already has still gets every depth.
pub fn analyze_twin_by_depth<G: Game>(
    state: &G::State,
    scope: &Scope<G::Move>,
    params: &BotParams<G::BotOptions>,
    budget: &Budget,
) -> Result<Deepening<G::Move>, GameError> {
    let (twin, symmetry) = symmetry::canonical::<G>(state);
    let scope = scope_on_twin::<G>(scope, symmetry);
    let depths = Arc::new(Mutex::new(Vec::new()));
    let mut budget = budget.clone();
    let outer = budget.observer.take();
    let kept = Arc::clone(&depths);
    budget.observer = Some(Observer(Arc::new(move |any: &dyn Any| {
        if let Some(analysis) = any.downcast_ref::<Analysis<G::Move>>() {
            kept.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(analysis.clone());
        }
        if let Some(Observer(outer)) = &outer {
            outer(any);
        }
    })));
    let analysis = G::analyze_scope(&twin, &scope, params, &budget)?;
    drop(budget);
    let depths = std::mem::take(&mut *depths.lock().unwrap_or_else(PoisonError::into_inner));
    let depths = depths
        .into_iter()
        .map(|a| turned_back::<G>(a, symmetry))
        .collect();
    Ok(Deepening {
        analysis: turned_back::<G>(analysis, symmetry),
        depths,
    })
}

/// An analysis, and the analyses of the depths its search completed on
/// the way.
pub struct Deepening<M> {
    /// The search's answer.
    pub analysis: Analysis<M>,
    /// Each completed depth's analysis, shallowest first (the last is
    /// mostly the answer's own depth).
    pub depths: Vec<Analysis<M>>,
}

/// An analysis of the canonical twin (turned by `symmetry` from the state
/// asked about) with its moves and lines turned back.
pub fn turned_back<G: Game>(
    mut analysis: Analysis<G::Move>,
    symmetry: Symmetry,
) -> Analysis<G::Move> {
    if symmetry != Symmetry::IDENTITY {
        for scored in &mut analysis.moves {
            scored.mv = symmetry::turn_back::<G>(&scored.mv, symmetry);
            for mv in &mut scored.pv {
                *mv = symmetry::turn_back::<G>(mv, symmetry);
            }
        }
    }
    analysis
}

/// The side to move's chance of winning (draws half) with a move of
/// `score` in `state`: certain where the score is proven, else from the
/// game's win model, if it has one (a decided score lies far out on the
/// model's curve, at 0 or 1).
pub fn win_probability<G: Game>(state: &G::State, score: i64, proven: bool) -> Option<f64> {
    if proven {
        return Some(
            match score.signum() {
                1 => Known::Win,
                0 => Known::Draw,
                _ => Known::Loss,
            }
            .probability(),
        );
    }
    calibration::shipped(G::info().id, G::WIN_MODEL)
        .map(|model| model.probability(G::phase(state), score))
}

/// An analysis as the API answers it, each move with its win probability,
/// from the side to move's view.
pub fn judged_reply<G: Game>(state: &G::State, analysis: Analysis<G::Move>) -> AnalyzeReply {
    let moves = analysis
        .moves
        .into_iter()
        .map(|m| AnalyzedMove {
            mv: G::move_to_json(state, &m.mv),
            score: m.score,
            win_probability: win_probability::<G>(state, m.score, m.exact.is_some()),
            pv: pv_notation::<G>(state, &m.pv),
            exact: m.exact,
        })
        .collect();
    AnalyzeReply {
        moves,
        search: analysis.report,
    }
}

/// A line in notation, as far as its moves are legal.
pub fn pv_notation<G: Game>(state: &G::State, pv: &[G::Move]) -> Vec<String> {
    let mut current = state.clone();
    let mut line = Vec::with_capacity(pv.len());
    let mut legal = Vec::new();
    for mv in pv {
        legal.clear();
        G::legal_moves(&current, &mut legal);
        if !legal.contains(mv) {
            break;
        }
        line.push(G::notation(&current, mv));
        current = G::apply(&current, mv);
    }
    line
}
