//! Auto-calibration's data file: what one run learned, read by the next. It lives at
//! `STARPU_HETEROPRIO_DATA_FILE` if set, else `<dir>/<program>.data` with `<dir>`
//! `STARPU_HETEROPRIO_DATA_DIR` or the performance models' directory's `heteroprio/`
//! (StarPU's places). The layout is StarPU's, so that files move between the two:
//! comment lines start with `#`; then the number of architectures and their ids; their
//! busy and free times; then per codelet its name and, per architecture, whether it runs
//! there, a line of ten general figures, and one line of four figures per architecture
//! that runs it. A file that does not parse is left aside with a warning, as StarPU does.

use super::{Auto, Mean};
use crate::sched::heteroprio::lists::Lists;
use crate::sched::heteroprio::options::Vars;
use crate::sched::heteroprio::NARCH;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Where the data file is by default (without `STARPU_HETEROPRIO_DATA_FILE`).
pub fn path(vars: Vars) -> PathBuf {
    let dir = vars("STARPU_HETEROPRIO_DATA_DIR")
        .filter(|d| !d.trim().is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::perfmodel::settings::sampling_base().join("heteroprio"));
    // StarPU names the file after program_invocation_short_name.
    let prog = std::env::args()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "UNKNOWN_PROGRAM".into());
    dir.join(format!("{prog}.data"))
}

/// Adds what the file at `path` holds to `auto` (buckets for its codelets, appended to
/// `lists`). A missing file is no error: the first run has none.
pub fn load(auto: &mut Auto, lists: &mut Lists, path: &std::path::Path) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    if let Err(what) = parse(auto, lists, &text) {
        eprintln!(
            "[starpu] warning: heteroprio: the data file {} {what}; the rest of it is ignored",
            path.display()
        );
    }
}

fn parse(auto: &mut Auto, lists: &mut Lists, text: &str) -> Result<(), &'static str> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let nums = |l: Option<&str>, what| -> Result<Vec<f64>, &'static str> {
        let l = l.ok_or(what)?;
        l.split_whitespace()
            .map(|x| x.parse::<f64>().map_err(|_| "is improperly formatted"))
            .collect()
    };
    let head = nums(lines.next(), "is missing a number of architectures")?;
    let n = *head.first().ok_or("is missing a number of architectures")? as usize;
    if head.len() != n + 1 {
        return Err("is missing an architecture id");
    }
    let archs: Vec<usize> = head[1..].iter().map(|&a| a as usize).collect();
    let times = nums(lines.next(), "is missing the architectures' times")?;
    if times.len() != 2 * n {
        return Err("is missing an architecture's average times");
    }
    for (i, &a) in archs.iter().enumerate().filter(|(_, &a)| a < NARCH) {
        auto.busy[a] = times[2 * i];
        auto.free[a] = times[2 * i + 1];
    }
    while let Some(line) = lines.next() {
        let mut it = line.split_whitespace();
        let name = it.next().ok_or("is improperly formatted")?.to_string();
        let can: Vec<bool> = it.map(|x| x != "0").collect();
        if can.len() != n {
            return Err("is missing an architecture information for a codelet");
        }
        let g = nums(lines.next(), "ended abruptly")?;
        if g.len() != 10 {
            return Err("is improperly formatted");
        }
        let b = auto.names.len();
        if b == crate::sched::heteroprio::MAX_PRIO {
            return Err("names more codelets than there are buckets");
        }
        let s = &mut auto.stats[b];
        s.nod = Mean {
            value: g[0],
            count: g[1] as u32,
        };
        s.urt_count = g[2] as u32;
        s.proportion = g[3];
        s.proportion_count = g[4] as u32;
        s.arch_proportion_count = g[5] as u32;
        s.succ_best = Mean {
            value: g[6],
            count: g[7] as u32,
        };
        s.best = Mean {
            value: g[8],
            count: g[9] as u32,
        };
        let mut mask = 0u32;
        for (i, &a) in archs.iter().enumerate() {
            if !can[i] {
                continue;
            }
            let v = nums(lines.next(), "ended abruptly")?;
            if v.len() != 4 {
                return Err("is improperly formatted");
            }
            if a < NARCH {
                mask |= 1 << a;
                let s = &mut auto.stats[b];
                s.urt[a] = v[0];
                s.time[a] = Mean {
                    value: v[1],
                    count: v[2] as u32,
                };
                s.arch_proportion[a] = v[3];
            }
        }
        auto.add_codelet(lists, &name, mask);
    }
    Ok(())
}

/// What `auto` knows, in the file's layout.
pub fn render(auto: &Auto, lists: &Lists) -> String {
    let used: Vec<usize> = (0..NARCH).filter(|&a| auto.on_arch[a] > 0).collect();
    let mut out = String::new();
    out.push_str("##################\n# Known architectures\n# number_of_archs arch_ids (");
    for &a in &used {
        let _ = write!(out, "{} - {a}, ", super::arch_name(a));
    }
    out.push_str(")\n");
    let _ = write!(out, "{}", used.len());
    for &a in &used {
        let _ = write!(out, " {a}");
    }
    out.push_str("\n##################\n# Busy/Free proportion per architecture\n");
    out.push_str("# ARCH1_busy_time ARCH1_free_time ... ARCHn_busy_time ARCHn_free_time\n");
    for &a in &used {
        let _ = write!(out, " {:.6} {:.6}", auto.busy[a], auto.free[a]);
    }
    out.push_str("\n##################\n# Codelets specific data\n");
    out.push_str("# codelet_name arch_1_can_exec ... arch_n_can_exec\n");
    out.push_str(
        "# average_NOD average_NOD_count average_URT_count overall_proportion \
         overall_proportion_count arch_proportion_count avg_best_successor_time \
         avg_best_successor_time_count prio_average_best prio_average_best_count\n",
    );
    out.push_str(
        "# for each arch which can exec: average_URT_ARCH average_time_ARCH \
         average_time_ARCH_count ARCH_proportion\n##########\n",
    );
    for (b, name) in auto.names.iter().enumerate() {
        let s = &auto.stats[b];
        out.push_str(name);
        for &a in &used {
            let _ = write!(out, " {}", u8::from(lists.names(a, b)));
        }
        let _ = writeln!(
            out,
            "\n{:.6} {} {} {:.6} {} {} {:.6} {} {:.6} {}",
            s.nod.value,
            s.nod.count,
            s.urt_count,
            s.proportion,
            s.proportion_count,
            s.arch_proportion_count,
            s.succ_best.value,
            s.succ_best.count,
            s.best.value,
            s.best.count
        );
        for &a in used.iter().filter(|&&a| lists.names(a, b)) {
            let _ = writeln!(
                out,
                "{:.6} {:.6} {} {:.6}",
                s.urt[a], s.time[a].value, s.time[a].count, s.arch_proportion[a]
            );
        }
        out.push_str("#####\n");
    }
    out
}

/// Writes the file (making its directory); a failure is a warning, as in StarPU.
pub fn save(auto: &Auto, lists: &Lists, path: &std::path::Path) {
    let text = render(auto, lists);
    let r = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| std::fs::write(path, text));
    if let Err(e) = r {
        eprintln!(
            "[starpu] warning: heteroprio: unable to save task data to {}: {e}",
            path.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::heteroprio::options::AutoOptions;

    fn fresh() -> (Auto, Lists) {
        let opts = AutoOptions::read(&|_| None, PathBuf::from("/nonexistent")).unwrap();
        (Auto::new(opts), Lists::empty())
    }

    #[test]
    fn what_is_saved_is_read_back() {
        let (mut a, mut l) = fresh();
        a.add_codelet(&mut l, "gemm", 0b11);
        a.add_codelet(&mut l, "potrf", 0b01);
        a.busy[0] = 12.5;
        a.free[0] = 7.25;
        a.stats[0].nod = Mean {
            value: 1.5,
            count: 3,
        };
        a.stats[0].time[1] = Mean {
            value: 42.0,
            count: 9,
        };
        a.stats[1].proportion = 0.25;
        a.stats[1].proportion_count = 4;
        let text = render(&a, &l);
        let (mut b, mut m) = fresh();
        parse(&mut b, &mut m, &text).unwrap();
        assert_eq!(b.names, ["gemm", "potrf"]);
        assert_eq!((b.busy[0], b.free[0]), (12.5, 7.25));
        assert_eq!(b.stats[0].nod, a.stats[0].nod);
        assert_eq!(b.stats[0].time[1], a.stats[0].time[1]);
        assert_eq!(b.stats[1].proportion, 0.25);
        // Buckets go on the lists of the architectures that run them.
        assert_eq!(m.levels(0), &[0, 1]);
        assert_eq!(m.levels(1), &[0]);
        // A damaged file is refused, keeping what came before the damage.
        let (mut c, mut n) = fresh();
        let cut = text.lines().take(15).collect::<Vec<_>>().join("\n");
        assert!(parse(&mut c, &mut n, &cut).is_err());
    }
}
