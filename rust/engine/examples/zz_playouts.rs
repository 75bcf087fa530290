use regalia_engine::{make, Options};
use std::sync::atomic::AtomicBool;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut o = Options::new();
    if args[1] == "duo" { o.insert("rounds".into(), serde_json::json!(1)); }
    let g = make(&args[1], &o).unwrap();
    let n: u64 = args[2].parse().unwrap();
    let t = std::time::Instant::now();
    let s = g.random_playouts(n, 1, 1, &AtomicBool::new(false)).unwrap();
    println!("{:?} {:?}", s, t.elapsed());
}
