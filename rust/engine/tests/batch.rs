//! The batch of every registered game against the same games played one by one through
//! sessions: same seeds and actions give the same observations, masks, players, rewards and
//! restarts, whatever the number of threads.

use regalia_engine::batch::{BatchBuffers, MIN_GAMES_PER_THREAD};
use regalia_engine::rng::{derive_seed, Rng};
use regalia_engine::{all_games, fuzz, make, DynGame, DynState, Options};

/// Output buffers for `n` games of `game`, filled with what no step writes (so that an
/// element left unwritten shows).
fn buffers(game: &dyn DynGame, n: usize) -> BatchBuffers {
    let size: usize = game.observation_shape().iter().product();
    let mut buf = BatchBuffers::new(n, size, game.num_actions(), game.num_players());
    buf.observations.fill(f32::NAN);
    buf.rewards.fill(f32::NAN);
    buf.terminated.fill(true);
    buf.players.fill(-7);
    buf
}

/// Checks row `i` of `buf` against `s`.
fn check_row(game: &dyn DynGame, buf: &BatchBuffers, i: usize, s: &dyn DynState) {
    let size: usize = game.observation_shape().iter().product();
    let na = game.num_actions();
    let seat = s.current_player().expect("a restarted game is not over");
    assert_eq!(buf.players[i], seat as i64);
    let mut t = vec![0.0; size];
    s.observation_tensor(seat as i64, &mut t).unwrap();
    assert_eq!(&buf.observations[i * size..(i + 1) * size], &t[..]);
    let legal = s.legal_actions();
    let mask: Vec<bool> = (0..na).map(|a| legal.contains(a)).collect();
    assert_eq!(&buf.masks[i * na..(i + 1) * na], &mask[..]);
}

/// Steps a batch of `n` games with random legal actions and the same games as sessions,
/// `steps` times or (with `until_restarts`) until every slot has restarted; returns
/// how many games ended.
fn play_along(
    name: &str,
    players: usize,
    n: usize,
    threads: usize,
    steps: usize,
    until_restarts: bool,
) -> usize {
    let game = make(name, &fuzz::harness_options(name, players, 1)).unwrap();
    let np = game.num_players();
    let mut batch = game.new_batch(n, 5, threads);
    let mut buf = buffers(&*game, n);
    batch.reset(None, buf.out()).unwrap();
    let mut sessions: Vec<Box<dyn DynState>> = (0..n)
        .map(|i| game.new_state(derive_seed(5, i as u64)))
        .collect();
    let mut episodes = vec![0u64; n];
    assert_eq!(
        batch.seeds(),
        (0..n).map(|i| derive_seed(5, i as u64)).collect::<Vec<_>>()
    );
    for (i, s) in sessions.iter().enumerate() {
        check_row(&*game, &buf, i, &**s);
        assert!(!buf.terminated[i] && buf.rewards[i * np..(i + 1) * np].iter().all(|&r| r == 0.0));
    }
    let mut picker = Rng::new(11);
    let mut ended = 0;
    for _ in 0..steps {
        if until_restarts && episodes.iter().all(|&e| e >= 1) {
            break;
        }
        let actions: Vec<i64> = sessions
            .iter()
            .map(|s| {
                let legal = s.legal_actions();
                legal.nth(picker.index(legal.len())).unwrap() as i64
            })
            .collect();
        batch.step(&actions, buf.out()).unwrap();
        for i in 0..n {
            sessions[i].apply(actions[i]).unwrap();
            let done = sessions[i].is_terminal();
            assert_eq!(buf.terminated[i], done);
            let want: Vec<f32> = if done {
                sessions[i].returns().iter().map(|&r| r as f32).collect()
            } else {
                vec![0.0; np]
            };
            assert_eq!(&buf.rewards[i * np..(i + 1) * np], &want[..]);
            if done {
                ended += 1;
                episodes[i] += 1;
                let seed = derive_seed(5, episodes[i] * n as u64 + i as u64);
                sessions[i] = game.new_state(seed);
            }
            check_row(&*game, &buf, i, &*sessions[i]);
            if n < 10 {
                assert!(batch.state(i).unwrap().same_as(&*sessions[i]));
            }
        }
    }
    for (i, s) in sessions.iter().enumerate() {
        assert!(batch.state(i).unwrap().same_as(&**s));
    }
    ended
}

#[test]
fn batches_match_games_played_one_by_one() {
    for info in all_games() {
        for players in info.min_players..=info.max_players {
            let ended = play_along(info.name, players, 6, 1, 100_000, true);
            assert!(ended >= 6, "{}: games did not end", info.name);
        }
    }
}

#[test]
fn threads_do_not_change_the_games() {
    for info in all_games() {
        let n = 2 * MIN_GAMES_PER_THREAD + 3;
        play_along(info.name, info.min_players, n, 3, 25, false);
    }
}

#[test]
fn bad_actions_are_refused_naming_the_game_and_change_nothing() {
    for info in all_games() {
        let game = make(info.name, &Options::new()).unwrap();
        let mut batch = game.new_batch(3, 1, 1);
        let mut buf = buffers(&*game, 3);
        batch.reset(None, buf.out()).unwrap();
        let before: Vec<String> = (0..3).map(|i| batch.state(i).unwrap().to_json()).collect();
        let legal: Vec<i64> = (0..3)
            .map(|i| batch.state(i).unwrap().legal_actions().nth(0).unwrap() as i64)
            .collect();
        let illegal =
            (0..game.num_actions()).find(|&a| !batch.state(2).unwrap().legal_actions().contains(a));
        let mut bad_sets = vec![
            (vec![legal[0], -1, legal[2]], "game 1"),
            (
                vec![legal[0], legal[1], game.num_actions() as i64],
                "game 2",
            ),
        ];
        if let Some(a) = illegal {
            bad_sets.push((vec![legal[0], legal[1], a as i64], "game 2"));
        }
        for (actions, who) in bad_sets {
            let e = batch.step(&actions, buf.out()).unwrap_err();
            assert!(e.to_string().contains(who), "{e}");
        }
        assert!(batch.step(&legal[..2], buf.out()).is_err());
        let after: Vec<String> = (0..3).map(|i| batch.state(i).unwrap().to_json()).collect();
        assert_eq!(before, after);
        assert!(batch.state(3).is_err());
        let mut short = buffers(&*game, 2);
        assert!(batch.step(&legal, short.out()).is_err());
    }
}

#[test]
fn reset_with_a_seed_restarts_every_game_from_it() {
    for info in all_games() {
        let game = make(info.name, &Options::new()).unwrap();
        let mut batch = game.new_batch(4, 1, 1);
        let mut buf = buffers(&*game, 4);
        batch.reset(Some(9), buf.out()).unwrap();
        for i in 0..4 {
            let s = game.new_state(derive_seed(9, i as u64));
            assert!(batch.state(i).unwrap().same_as(&*s));
            check_row(&*game, &buf, i, &*s);
        }
    }
}

#[test]
fn sampled_actions_are_legal_uniform_and_independent_of_the_threads() {
    for info in all_games() {
        let game = make(info.name, &Options::new()).unwrap();
        let n = 2 * MIN_GAMES_PER_THREAD + 3;
        let (mut one, mut many) = (game.new_batch(n, 4, 1), game.new_batch(n, 4, 3));
        let (mut b1, mut b2) = (buffers(&*game, n), buffers(&*game, n));
        one.reset(None, b1.out()).unwrap();
        many.reset(None, b2.out()).unwrap();
        let (mut a1, mut a2) = (vec![0i64; n], vec![0i64; n]);
        for _ in 0..30 {
            one.sample_actions(&mut a1).unwrap();
            many.sample_actions(&mut a2).unwrap();
            assert_eq!(a1, a2, "{}", info.name);
            for (i, &a) in a1.iter().enumerate() {
                assert!(
                    b1.masks[i * game.num_actions() + a as usize],
                    "{}",
                    info.name
                );
            }
            one.step(&a1, b1.out()).unwrap();
            many.step(&a2, b2.out()).unwrap();
        }
        assert!(one.sample_actions(&mut a1[1..]).is_err());
    }
    // Drawn again without a step, the legal actions of one game come up equally often.
    let game = make("duo-regna", &Options::new()).unwrap();
    let mut batch = game.new_batch(1, 2, 1);
    let mut buf = buffers(&*game, 1);
    batch.reset(None, buf.out()).unwrap();
    let legal = *batch.state(0).unwrap().legal_actions();
    let mut counts = vec![0u32; game.num_actions()];
    let mut a = [0i64];
    for _ in 0..9000 {
        batch.sample_actions(&mut a).unwrap();
        counts[a[0] as usize] += 1;
    }
    for (action, &c) in counts.iter().enumerate() {
        if legal.contains(action) {
            let expected = 9000 / legal.len() as u32;
            assert!(c.abs_diff(expected) < expected / 5, "{counts:?}");
        } else {
            assert_eq!(c, 0);
        }
    }
}
