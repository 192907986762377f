//! Auto-calibration's ordering (StarPU's `order_priorities` and
//! `autoheteroprio_update_slowdown_data`): each architecture's buckets are sorted by a
//! score, highest first. A bucket's score compares its normalised length on the
//! architecture (`own`) with that on the worst architecture for it (`other`; the second
//! worst when the architecture is the worst itself; the extremely long time when there is
//! none), mixed with its released work (URT), freed successors (NOD), and how busy the
//! architectures are, by the heuristic `STARPU_AUTOHETEROPRIO_PRIORITY_ORDERING_POLICY`
//! names. While fewer than 16 lengths were measured on the CPU for a bucket, its score is
//! boosted so that it gets measured.

use super::{Auto, EXTREMELY_LONG_TIME, FAIR_TIME, RELEVANT_SAMPLE_SIZE};
use crate::sched::heteroprio::lists::Lists;
use crate::sched::heteroprio::NARCH;

fn relu(x: f64) -> f64 {
    x.max(0.0)
}

fn rpg(x: f64) -> f64 {
    if x > 1.0 {
        1.0
    } else {
        x.sqrt() * (2.0 - x).sqrt()
    }
}

/// What a score formula is given.
struct Terms {
    own: f64,
    diff: f64,
    rel_diff: f64,
    nod: f64,
    urt: f64,
    succ_sum: f64,
    own_share: f64,
    other_share: f64,
    need_diff: f64,
}

fn score(auto: &Auto, t: &Terms) -> f64 {
    let w = &auto.opts.weights;
    let urt = t.urt;
    let d = t.diff;
    let sym_rel = if t.rel_diff > 1.0 {
        t.rel_diff
    } else {
        1.0 / t.rel_diff
    };
    match auto.opts.policy.0 {
        0 => d + w.nt_nod * (-w.nt_exp * (sym_rel - 1.0).powi(2)).exp() * t.nod,
        1 | 2 => {
            let m = if d > 0.0 {
                1.0
            } else {
                (-w.bn_exp * d * d).exp()
            };
            (2.0 * m - 1.0) * t.nod
        }
        3 => urt,
        4 => w.urt_urt * urt + d,
        5 => w.urt2_urt * urt + d + w.urt2_prop * relu(t.own_share * t.other_share * t.need_diff),
        6 => urt * d,
        7 => (1.0 + urt) * d,
        8 => urt * t.rel_diff,
        9 => (1.0 + urt) * t.rel_diff,
        10 => (1.0 + urt) * d + w.and2 * t.own * t.need_diff,
        11 => (1.0 + urt) * d + w.and3 * t.own * relu(t.need_diff),
        12 => (1.0 + urt) * d - w.and4 * t.own * relu(-t.need_diff),
        13 => (w.and5.0 + urt) * (w.and5.1 + d),
        14 => (1.0 + urt) * (1.0 + d.exp()).ln(),
        15 => rpg(urt) * (1.0 + urt) * (1.0 + d) + (1.0 - rpg(urt)) * -(1.0 + (-d).exp()).ln(),
        16 => {
            (1.0 / (1.0 + (-urt).exp()) - 0.5) * (1.0 + urt) * (1.0 + d)
                + (1.0 / (1.0 + (-1.0 / urt).exp()) - 0.5) * -(-d).exp()
        }
        17 => (w.and9.0 + urt).ln() * (d + w.and9.1 * urt).atan(),
        18 => (w.and10.0 + urt) * d.atan() + w.and10.1 * urt,
        19 => (w.and11.0 + urt) * (d + w.and11.1 * urt),
        20 => urt / t.own,
        21 => (urt + d) / t.own,
        22 => urt / t.own + d,
        23 => urt * (t.succ_sum + d) / t.own,
        24 => d + w.ant_nod * (-w.ant_exp * (sym_rel - 1.0).powi(2)).exp() * urt,
        25 => t.nod / t.own,
        26 => t.nod * t.succ_sum / t.own,
        _ => t.nod * (t.succ_sum + d) / t.own,
    }
}

/// The URT of bucket `b` on `arch` (the extremely long time's stand-in when unknown).
fn urt(auto: &Auto, b: usize, arch: usize) -> f64 {
    let s = &auto.stats[b];
    if s.urt_count > 0 {
        s.urt[arch]
    } else {
        FAIR_TIME
    }
}

/// Sorts every architecture's list by score.
pub fn order(auto: &Auto, lists: &mut Lists) {
    let mut scored: Vec<Vec<(usize, f64)>> = vec![Vec::new(); NARCH];
    let levels = auto.on_arch.iter().copied().max().unwrap_or(0);
    for p in 0..levels {
        // The worst and second worst architectures at level p (StarPU starts from the
        // CPU's bucket at that level and looks at the architectures naming bucket p).
        let mut worst = (0usize, lists.mapping[0][p]);
        let mut worst_time = auto.normalized_time(lists, worst.1, 0);
        let mut second: Option<(usize, usize)> = None;
        let mut second_time = EXTREMELY_LONG_TIME;
        for a in 1..NARCH {
            if !lists.names(a, p) {
                continue;
            }
            let b = lists.mapping[a][p];
            let t = auto.normalized_time(lists, b, a);
            if worst_time < t {
                second = Some(worst);
                second_time = worst_time;
                worst = (a, b);
                worst_time = t;
            }
        }
        let worst_share = auto.arch_proportion(worst.1, worst.0);
        let worst_urt = urt(auto, worst.1, worst.0);
        let second_share = second.map_or(0.0, |(a, b)| auto.arch_proportion(b, a));
        let second_urt = second.map_or(EXTREMELY_LONG_TIME, |(a, b)| urt(auto, b, a));
        for (a, list) in scored.iter_mut().enumerate() {
            if p >= auto.on_arch[a] {
                continue;
            }
            let b = lists.mapping[a][p];
            let (other_time, other_urt, other_share) = if a == worst.0 {
                (second_time, second_urt, second_share)
            } else {
                (worst_time, worst_urt, worst_share)
            };
            let s = &auto.stats[b];
            let own = auto.normalized_time(lists, b, a);
            let need_own = 1.0 - auto.busy_proportion(a);
            let need_other = 1.0 - other_share;
            let terms = Terms {
                own,
                diff: other_time - own,
                rel_diff: other_time / own,
                nod: s.nod.or(1.0),
                urt: urt(auto, b, a) * need_own + other_urt * need_other,
                succ_sum: s.succ_best.or(FAIR_TIME),
                own_share: auto.arch_proportion(b, a),
                other_share,
                need_diff: need_own - need_other,
            };
            let mut sc = score(auto, &terms);
            if !auto.opts.freeze && s.time[0].count < RELEVANT_SAMPLE_SIZE {
                sc += 99_999_999.0;
            }
            list.push((b, sc));
        }
    }
    lists.clear_mapping();
    for (a, list) in scored.iter_mut().enumerate() {
        // Highest score first; equal scores keep their order.
        list.sort_by(|x, y| y.1.total_cmp(&x.1));
        for (level, &(b, _)) in list.iter().enumerate() {
            lists.set_mapping(a, level, b);
        }
    }
}

/// Sets each bucket's fastest architecture and the others' slow factors (their expected
/// length over the fastest's).
pub fn update_slow_factors(auto: &Auto, lists: &mut Lists) {
    for b in 0..auto.names.len() {
        let times: Vec<(usize, f64)> = (0..NARCH)
            .filter(|&a| lists.names(a, b))
            .map(|a| (a, auto.estimated_time(lists, b, a)))
            .collect();
        let Some(&(fastest, best)) =
            times
                .iter()
                .fold(None, |m: Option<&(usize, f64)>, x| match m {
                    Some(m) if m.1 <= x.1 => Some(m),
                    _ => Some(x),
                })
        else {
            continue;
        };
        lists.set_faster_arch(fastest, b);
        for &(a, t) in times.iter().filter(|x| x.0 != fastest) {
            lists.buckets[b].slow_factors[a] = (t / best) as f32;
        }
    }
}
