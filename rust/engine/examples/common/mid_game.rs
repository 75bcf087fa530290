//! The criterion benchmark's ISMCTS position, shared by the search examples.

use regalia_engine::rng::Rng;
use regalia_engine::{make, DynState, Options};

/// The benchmark's position: `steps` random steps into game `name` (fewer if it would end).
pub fn mid_game(name: &str, steps: usize) -> Box<dyn DynState> {
    let mut options = Options::new();
    if name == "duo" {
        options.insert("rounds".into(), 1.into());
    }
    let game = make(name, &options).expect("a registered game");
    let mut s = game.new_state(1);
    let mut pick = Rng::new(1);
    for _ in 0..steps {
        let legal = s.legal_actions();
        let mut next = s.clone_box();
        next.apply(legal.nth(pick.index(legal.len())).expect("a legal action") as i64)
            .expect("a legal action applies");
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    s
}
