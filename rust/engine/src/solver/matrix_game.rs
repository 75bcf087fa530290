//! Small two-player zero-sum matrix games, solved exactly (up to floating-point rounding).
//!
//! The row player maximises, the column player minimises `p·A·q`. A pure saddle point is
//! found directly; otherwise the game is the linear program of the column player,
//! `max Σy` subject to `B·y ≤ 1`, `y ≥ 0` with `B = A − min(A) + 1 > 0`, solved by the
//! simplex method with Bland's rule (no cycling on the many ties such games have). The
//! column strategy is `y / Σy`, the row strategy the program's dual prices, the value
//! `1 / Σy + min(A) − 1`. Both strategies come out of one solve, allocation-free.

/// A matrix game's equilibrium: the value and an optimal mixed strategy for each player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution<const N: usize> {
    /// What the row player gets on average when both play their strategies.
    pub value: f64,
    /// The row player's optimal strategy (probabilities of the first `rows` entries).
    pub row: [f64; N],
    /// The column player's optimal strategy (probabilities of the first `cols` entries).
    pub col: [f64; N],
}

/// Reduced costs below this are treated as zero.
const EPS: f64 = 1e-12;
/// Pivots below this are refused: rows that differ only by rounding would otherwise be
/// divided by their difference.
const PIVOT: f64 = 1e-9;
/// Columns of the simplex tableau: room for games up to 15 x 15.
const WIDTH: usize = 32;

/// Solves the game with payoffs `a[i][j]` (to the row player) for the first `rows` rows and
/// `cols` columns (each at least 1 and at most `N`).
pub fn solve<const N: usize>(a: &[[f64; N]; N], rows: usize, cols: usize) -> Solution<N> {
    debug_assert!((1..=N).contains(&rows) && (1..=N).contains(&cols));
    if let Some(s) = saddle_point(a, rows, cols) {
        return s;
    }
    let s = simplex(a, rows, cols);
    if deviation_gain(a, rows, cols, &s) <= CHECKED {
        return s;
    }
    // Rows that differ only by rounding can mislead the pivots: solve it the slow, sure way.
    let mut minus_transposed = [[0.0; N]; N];
    for (i, r) in a.iter().enumerate().take(rows) {
        for (j, &v) in r.iter().enumerate().take(cols) {
            minus_transposed[j][i] = -v;
        }
    }
    let (value, row) = by_enumeration(a, rows, cols);
    let (_, col) = by_enumeration(&minus_transposed, cols, rows);
    Solution { value, row, col }
}

/// The largest gain a pure deviation may show before a simplex solution is re-solved.
const CHECKED: f64 = 1e-10;

/// The value and an optimal row strategy, by enumeration: every square subsystem "the row
/// mixture on rows S makes every column of T pay the same v" is solved, and the valid mixture
/// with the best guarantee wins (an optimal row strategy is a vertex of its polytope, and
/// each vertex solves one such system). Exponential, for rare use on small games.
pub fn by_enumeration<const N: usize>(
    a: &[[f64; N]; N],
    rows: usize,
    cols: usize,
) -> (f64, [f64; N]) {
    let subsets = |n: usize, k: usize| (0u32..1 << n).filter(move |m| m.count_ones() as usize == k);
    let (mut best, mut best_p) = (f64::NEG_INFINITY, [0.0; N]);
    for size in 1..=rows.min(cols) {
        for rs in subsets(rows, size) {
            let r_idx: Vec<usize> = (0..rows).filter(|&i| rs & (1 << i) != 0).collect();
            for cs in subsets(cols, size) {
                // Unknowns p (on the rows of S) and v: the columns of T pay v, and Σp = 1.
                let mut sys = vec![vec![0.0; size + 2]; size + 1];
                for (e, c) in (0..cols).filter(|&j| cs & (1 << j) != 0).enumerate() {
                    for (u, &r) in r_idx.iter().enumerate() {
                        sys[e][u] = a[r][c];
                    }
                    sys[e][size] = -1.0;
                }
                sys[size][..size].fill(1.0);
                sys[size][size + 1] = 1.0;
                let Some(x) = gauss(sys) else { continue };
                if x[..size].iter().any(|&p| p < -1e-9) {
                    continue;
                }
                let mut p = [0.0; N];
                for (u, &r) in r_idx.iter().enumerate() {
                    p[r] = x[u].max(0.0);
                }
                normalize(&mut p[..rows]);
                let guarantee = (0..cols)
                    .map(|j| (0..rows).map(|i| p[i] * a[i][j]).sum::<f64>())
                    .fold(f64::INFINITY, f64::min);
                if guarantee > best {
                    (best, best_p) = (guarantee, p);
                }
            }
        }
    }
    (best, best_p)
}

/// The solution of a square system given as rows `[coefficients.., right side]`, or `None`
/// if it is singular.
fn gauss(mut sys: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = sys.len();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| sys[x][c].abs().total_cmp(&sys[y][c].abs()))?;
        if sys[p][c].abs() < 1e-12 {
            return None;
        }
        sys.swap(c, p);
        let pivot = sys[c].clone();
        for (r, row) in sys.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (v, &q) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *v -= f * q;
                }
            }
        }
    }
    Some((0..n).map(|r| sys[r][n] / sys[r][r]).collect())
}

/// The game's pure equilibrium, if it has one: a row whose worst payoff equals the best
/// payoff a column concedes.
fn saddle_point<const N: usize>(
    a: &[[f64; N]; N],
    rows: usize,
    cols: usize,
) -> Option<Solution<N>> {
    let (mut best_row, mut maximin) = (0, f64::NEG_INFINITY);
    for (i, r) in a.iter().enumerate().take(rows) {
        let worst = r[..cols].iter().copied().fold(f64::INFINITY, f64::min);
        if worst > maximin {
            (best_row, maximin) = (i, worst);
        }
    }
    let (mut best_col, mut minimax) = (0, f64::INFINITY);
    for j in 0..cols {
        let best = a[..rows]
            .iter()
            .map(|r| r[j])
            .fold(f64::NEG_INFINITY, f64::max);
        if best < minimax {
            (best_col, minimax) = (j, best);
        }
    }
    (maximin >= minimax).then(|| {
        let (mut row, mut col) = ([0.0; N], [0.0; N]);
        row[best_row] = 1.0;
        col[best_col] = 1.0;
        Solution {
            value: a[best_row][best_col],
            row,
            col,
        }
    })
}

/// The simplex method on the column player's program (see the module comment).
fn simplex<const N: usize>(a: &[[f64; N]; N], rows: usize, cols: usize) -> Solution<N> {
    let low = a[..rows]
        .iter()
        .flat_map(|r| r[..cols].iter().copied())
        .fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    // Tableau rows: B (cols columns), then the slacks (rows columns), then the right side;
    // `basis[i]` is the variable of row `i`: `j < cols` a column's `y_j`, else a slack.
    let width = cols + rows + 1;
    assert!(width <= WIDTH, "matrix games up to 15 x 15");
    let mut t = [[0.0f64; WIDTH]; N];
    let mut z = [0.0f64; WIDTH];
    let mut basis = [0usize; N];
    for i in 0..rows {
        for j in 0..cols {
            t[i][j] = a[i][j] + shift;
        }
        t[i][cols + i] = 1.0;
        t[i][width - 1] = 1.0;
        basis[i] = cols + i;
    }
    z[..cols].fill(-1.0);
    // Bland's rule: the lowest-numbered improving variable enters...
    while let Some(enter) = (0..width - 1).find(|&j| z[j] < -EPS) {
        // ...and among the tightest rows, the one whose variable is lowest-numbered leaves.
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..rows {
            if t[i][enter] > PIVOT {
                let ratio = t[i][width - 1] / t[i][enter];
                let better = match leave {
                    None => true,
                    Some((l, r)) => ratio < r - EPS || (ratio <= r + EPS && basis[i] < basis[l]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // B > 0 keeps the program bounded: some row always limits an entering column.
        let Some((p, _)) = leave else { break };
        let pivot = t[p][enter];
        for v in t[p][..width].iter_mut() {
            *v /= pivot;
        }
        let pivot_row = t[p];
        for (i, row) in t.iter_mut().enumerate().take(rows) {
            let f = row[enter];
            if i != p && f != 0.0 {
                for (v, &q) in row[..width].iter_mut().zip(&pivot_row[..width]) {
                    *v -= f * q;
                }
            }
        }
        let f = z[enter];
        for (v, &q) in z[..width].iter_mut().zip(&pivot_row[..width]) {
            *v -= f * q;
        }
        basis[p] = enter;
    }
    let total = z[width - 1];
    let (mut row, mut col) = ([0.0; N], [0.0; N]);
    for i in 0..rows {
        if basis[i] < cols {
            col[basis[i]] = t[i][width - 1].max(0.0) / total;
        }
        row[i] = z[cols + i].max(0.0) / total;
    }
    normalize(&mut row[..rows]);
    normalize(&mut col[..cols]);
    Solution {
        value: 1.0 / total - shift,
        row,
        col,
    }
}

/// Scales non-negative weights to sum to one (rounding leaves them a hair off).
fn normalize(p: &mut [f64]) {
    let sum: f64 = p.iter().sum();
    for v in p {
        *v /= sum;
    }
}

/// How much the better of the two players could gain by a pure deviation from `s` in the
/// game `a`: the largest of `max_i (A q)_i − value` and `value − min_j (p A)_j` (zero for
/// an exact equilibrium).
pub fn deviation_gain<const N: usize>(
    a: &[[f64; N]; N],
    rows: usize,
    cols: usize,
    s: &Solution<N>,
) -> f64 {
    let row_gain = (0..rows)
        .map(|i| (0..cols).map(|j| a[i][j] * s.col[j]).sum::<f64>() - s.value)
        .fold(f64::NEG_INFINITY, f64::max);
    let col_gain = (0..cols)
        .map(|j| s.value - (0..rows).map(|i| s.row[i] * a[i][j]).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    row_gain.max(col_gain)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The value of the game `a` (any size up to 9 x 9) by an independent method: rows and
    /// columns that another weakly dominates are removed (this keeps the value), then
    /// `by_enumeration` solves what is left.
    pub(crate) fn value_by_enumeration(a: &[Vec<f64>]) -> f64 {
        let mut rows: Vec<usize> = (0..a.len()).collect();
        let mut cols: Vec<usize> = (0..a[0].len()).collect();
        loop {
            let before = (rows.len(), cols.len());
            let row_below =
                |i: usize, k: usize, cols: &[usize]| cols.iter().all(|&j| a[k][j] >= a[i][j]);
            let dominated = (0..rows.len()).find(|&x| {
                (0..rows.len()).any(|y| {
                    y != x
                        && row_below(rows[x], rows[y], &cols)
                        && (y < x || !row_below(rows[y], rows[x], &cols))
                })
            });
            if let Some(pos) = dominated {
                rows.remove(pos);
            }
            let col_above =
                |j: usize, k: usize, rows: &[usize]| rows.iter().all(|&i| a[i][k] <= a[i][j]);
            let dominated = (0..cols.len()).find(|&x| {
                (0..cols.len()).any(|y| {
                    y != x
                        && col_above(cols[x], cols[y], &rows)
                        && (y < x || !col_above(cols[y], cols[x], &rows))
                })
            });
            if let Some(pos) = dominated {
                cols.remove(pos);
            }
            if (rows.len(), cols.len()) == before {
                break;
            }
        }
        let mut m = [[0.0; 9]; 9];
        for (x, &i) in rows.iter().enumerate() {
            for (y, &j) in cols.iter().enumerate() {
                m[x][y] = a[i][j];
            }
        }
        by_enumeration(&m, rows.len(), cols.len()).0
    }

    fn game<const N: usize>(rows: &[&[f64]]) -> [[f64; N]; N] {
        let mut a = [[0.0; N]; N];
        for (i, r) in rows.iter().enumerate() {
            a[i][..r.len()].copy_from_slice(r);
        }
        a
    }

    /// Bounds on the value from a fine grid of mixtures: the best row mixture of a 2 x n
    /// game approaches it from below, the best column mixture of an m x 2 game from above.
    fn grid_bounds(a: &[[f64; 9]; 9], rows: usize, cols: usize) -> (f64, f64) {
        let steps = 4_000;
        let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
        for s in 0..=steps {
            let x = s as f64 / steps as f64;
            if rows == 2 {
                let worst = (0..cols)
                    .map(|j| x * a[0][j] + (1.0 - x) * a[1][j])
                    .fold(f64::INFINITY, f64::min);
                low = low.max(worst);
            }
            if cols == 2 {
                let best = (0..rows)
                    .map(|i| x * a[i][0] + (1.0 - x) * a[i][1])
                    .fold(f64::NEG_INFINITY, f64::max);
                high = high.min(best);
            }
        }
        (low, high)
    }

    #[test]
    fn matching_pennies_and_rock_paper_scissors_mix_evenly() {
        let pennies: [[f64; 9]; 9] = game(&[&[1.0, -1.0], &[-1.0, 1.0]]);
        let s = solve(&pennies, 2, 2);
        assert!(s.value.abs() < 1e-12);
        assert!((s.row[0] - 0.5).abs() < 1e-12 && (s.col[1] - 0.5).abs() < 1e-12);
        let rps: [[f64; 9]; 9] = game(&[&[0.0, -1.0, 1.0], &[1.0, 0.0, -1.0], &[-1.0, 1.0, 0.0]]);
        let s = solve(&rps, 3, 3);
        assert!(s.value.abs() < 1e-12);
        for i in 0..3 {
            assert!((s.row[i] - 1.0 / 3.0).abs() < 1e-12 && (s.col[i] - 1.0 / 3.0).abs() < 1e-12);
        }
    }

    #[test]
    fn a_saddle_point_is_played_pure() {
        let a: [[f64; 9]; 9] = game(&[&[3.0, 1.0, 4.0], &[2.0, 0.5, -1.0]]);
        let s = solve(&a, 2, 3);
        assert_eq!((s.value, s.row[0], s.col[1]), (1.0, 1.0, 1.0));
    }

    #[test]
    fn a_known_mixed_game_has_its_textbook_value() {
        // [[2, -1], [-1, 1]]: value 1/5, row (2/5, 3/5), column (2/5, 3/5).
        let a: [[f64; 9]; 9] = game(&[&[2.0, -1.0], &[-1.0, 1.0]]);
        let s = solve(&a, 2, 2);
        assert!((s.value - 0.2).abs() < 1e-12);
        assert!((s.row[0] - 0.4).abs() < 1e-12 && (s.col[0] - 0.4).abs() < 1e-12);
    }

    #[test]
    fn random_games_are_solved_to_equilibrium_and_agree_with_a_grid() {
        let mut rng = Rng::new(11);
        for trial in 0..20_000 {
            let rows = 1 + rng.index(9);
            let cols = 1 + rng.index(9);
            let mut a = [[0.0; 9]; 9];
            for r in a.iter_mut().take(rows) {
                for v in r.iter_mut().take(cols) {
                    // Few distinct values: ties and degenerate programs are the hard case.
                    *v = if trial % 2 == 0 {
                        rng.index(5) as f64 - 2.0
                    } else {
                        rng.index(1 << 20) as f64 / (1 << 19) as f64 - 1.0
                    };
                }
            }
            if trial % 3 == 0 && rows > 1 {
                // A row that differs from another only by rounding-sized amounts.
                let (from, to) = (rng.index(rows), rng.index(rows));
                let source = a[from];
                for (v, &x) in a[to].iter_mut().zip(&source).take(cols) {
                    *v = x + (rng.index(3) as f64 - 1.0) * 1e-10;
                }
            }
            if trial % 5 == 0 && cols > 1 {
                let (from, to) = (rng.index(cols), rng.index(cols));
                for r in a.iter_mut().take(rows) {
                    r[to] = r[from] + (rng.index(3) as f64 - 1.0) * 1e-10;
                }
            }
            let s = solve(&a, rows, cols);
            assert!(deviation_gain(&a, rows, cols, &s) < 1e-9, "{a:?} {s:?}");
            for p in [&s.row[..rows], &s.col[..cols]] {
                assert!(p.iter().all(|&x| x >= 0.0) && (p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
            if rows.max(cols) <= 5 {
                let rows_of: Vec<Vec<f64>> = a[..rows].iter().map(|r| r[..cols].to_vec()).collect();
                let v = value_by_enumeration(&rows_of);
                assert!(
                    (v - s.value).abs() < 1e-9,
                    "{rows_of:?}: {} vs {v}",
                    s.value
                );
            }
            let (low, high) = grid_bounds(&a, rows, cols);
            assert!(low <= s.value + 1e-9 && s.value <= high + 1e-9);
            if rows == 2 {
                assert!(s.value - low < 1e-3, "{a:?}: {} vs grid {low}", s.value);
            }
            if cols == 2 {
                assert!(high - s.value < 1e-3, "{a:?}: {} vs grid {high}", s.value);
            }
        }
    }
}
