//! A task graph held together by tags, explicit dependencies and callbacks.
//!
//! A diamond: `top` (tag 1) before `left` (tag 2) and `right` (tag 3), both before
//! `bottom`, which waits for the tags of both sides (`declare_deps`) and ends tag 4. Each
//! task appends its name to a log; callbacks count the tasks that ended. The sides are
//! submitted first and the top last, so only the tags order them. Then a chain of tasks
//! ordered by explicit dependencies (`after`), submitted in reverse order.

use starpu_core::{Codelet, Config};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = Config::default();
    config.apply_env()?;
    let rt = starpu_core::init(config)?;
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let ended = Arc::new(AtomicUsize::new(0));

    let step = {
        let log = log.clone();
        Arc::new(Codelet::new("step").cpu(move |call| {
            let name = call.arg::<&'static str>(0)?;
            log.lock().expect("log").push(name.to_string());
            Ok(())
        }))
    };
    let counted = |name: &'static str| {
        let ended = ended.clone();
        rt.task(&step).arg(name).name(name).callback(move |_| {
            ended.fetch_add(1, Ordering::SeqCst);
        })
    };

    rt.tags.declare_deps(2, &[1])?;
    rt.tags.declare_deps(3, &[1])?;
    rt.tags.declare_deps(4, &[2, 3])?;
    counted("bottom").tag(4).submit()?;
    counted("left").tag(2).submit()?;
    counted("right").tag(3).submit()?;
    counted("top").tag(1).submit()?;
    rt.tag_wait(&[4])?;

    let diamond = log.lock().expect("log").clone();
    let pos = |n: &str| diamond.iter().position(|x| x == n);
    let diamond_ok = diamond.len() == 4
        && pos("top") == Some(0)
        && pos("bottom") == Some(3)
        && pos("left").is_some()
        && pos("right").is_some();

    log.lock().expect("log").clear();
    let names = ["c0", "c1", "c2", "c3", "c4", "c5"];
    let builders: Vec<_> = names.iter().map(|&n| counted(n).detach(false)).collect();
    let tasks: Vec<_> = builders.iter().map(|b| b.task().clone()).collect();
    let mut last = None;
    for (i, b) in builders.into_iter().enumerate().rev() {
        let b = if i > 0 { b.after(&tasks[i - 1]) } else { b };
        let t = b.submit()?;
        last.get_or_insert(t);
    }
    rt.wait(&last.expect("a last task"))?;
    rt.wait_for_all()?;
    let chain = log.lock().expect("log").clone();
    let chain_ok = chain == names;

    let n = ended.load(Ordering::SeqCst);
    println!("tag_graph: diamond {diamond:?}, chain {chain:?}, {n} callbacks");
    drop(rt);
    starpu_core::shutdown()?;
    if !(diamond_ok && chain_ok && n == 10) {
        return Err("tasks ran out of order or callbacks are missing".into());
    }
    println!("tag_graph: ok");
    Ok(())
}
