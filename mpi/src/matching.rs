//! Matching receives with arrivals, as MPI matches messages: per communicator, source and
//! tag, the first receive posted takes the first envelope that arrived. A receive from
//! any source takes the earliest arrival with its tag from whichever process, and an
//! arrival goes to the earliest posted receive that accepts it, from any source or not.

use std::collections::{HashMap, VecDeque};

/// Communicator index, source rank, application tag.
pub type Key = (usize, i32, i64);

pub struct Matcher<P, A> {
    any_source: i32,
    seq: u64,
    posted: HashMap<Key, VecDeque<(u64, P)>>,
    posted_any: HashMap<(usize, i64), VecDeque<(u64, P)>>,
    arrived: HashMap<Key, VecDeque<(u64, A)>>,
}

impl<P, A> Matcher<P, A> {
    /// `any_source`: the rank value meaning "any source" (`MPI_ANY_SOURCE`).
    pub fn new(any_source: i32) -> Self {
        Matcher {
            any_source,
            seq: 0,
            posted: HashMap::new(),
            posted_any: HashMap::new(),
            arrived: HashMap::new(),
        }
    }

    fn tick(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// A receive is posted: the arrival it matches, or `None` (then it waits here).
    pub fn post(&mut self, (comm, source, tag): Key, p: P) -> Option<A> {
        let seq = self.tick();
        if source == self.any_source {
            // The earliest arrival with this tag, from any source.
            let key = self
                .arrived
                .iter()
                .filter(|((c, _, t), q)| *c == comm && *t == tag && !q.is_empty())
                .min_by_key(|(_, q)| q[0].0)
                .map(|(k, _)| *k);
            match key {
                Some(k) => return Some(pop(&mut self.arrived, k)),
                None => self
                    .posted_any
                    .entry((comm, tag))
                    .or_default()
                    .push_back((seq, p)),
            }
        } else {
            let key = (comm, source, tag);
            if self.arrived.get(&key).is_some_and(|q| !q.is_empty()) {
                return Some(pop(&mut self.arrived, key));
            }
            self.posted.entry(key).or_default().push_back((seq, p));
        }
        None
    }

    /// An envelope arrived: the receive it matches, or `None` (then it waits here).
    pub fn arrive(&mut self, key: Key, a: A) -> Option<P> {
        let seq = self.tick();
        let exact = self.posted.get(&key).and_then(|q| q.front()).map(|e| e.0);
        let any = self
            .posted_any
            .get(&(key.0, key.2))
            .and_then(|q| q.front())
            .map(|e| e.0);
        match (exact, any) {
            (Some(e), Some(a)) if a < e => Some(pop(&mut self.posted_any, (key.0, key.2))),
            (Some(_), _) => Some(pop(&mut self.posted, key)),
            (None, Some(_)) => Some(pop(&mut self.posted_any, (key.0, key.2))),
            (None, None) => {
                self.arrived.entry(key).or_default().push_back((seq, a));
                None
            }
        }
    }

    /// Takes back a posted receive that has not matched yet (`keep` false for it).
    pub fn withdraw(&mut self, mut keep: impl FnMut(&P) -> bool) {
        for q in self.posted.values_mut().chain(self.posted_any.values_mut()) {
            q.retain(|(_, p)| keep(p));
        }
    }

    /// Receives still waiting for an envelope.
    #[cfg(test)]
    pub fn posted_count(&self) -> usize {
        self.posted
            .values()
            .chain(self.posted_any.values())
            .map(VecDeque::len)
            .sum()
    }

    /// Arrivals no receive took yet.
    pub fn arrived(&self) -> impl Iterator<Item = (&Key, &A)> {
        self.arrived
            .iter()
            .flat_map(|(k, q)| q.iter().map(move |(_, a)| (k, a)))
    }
}

fn pop<K: std::hash::Hash + Eq, V>(map: &mut HashMap<K, VecDeque<(u64, V)>>, key: K) -> V {
    let q = map.get_mut(&key).expect("the queue was found non-empty");
    let (_, v) = q.pop_front().expect("the queue was found non-empty");
    if q.is_empty() {
        map.remove(&key);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANY: i32 = -1;

    #[test]
    fn receives_and_arrivals_pair_in_order_per_source_and_tag() {
        let mut m = Matcher::<&str, u32>::new(ANY);
        assert_eq!(m.arrive((0, 1, 7), 100), None, "an early arrival waits");
        assert_eq!(m.arrive((0, 1, 7), 101), None);
        assert_eq!(
            m.post((0, 2, 7), "from 2"),
            None,
            "another source does not match"
        );
        assert_eq!(m.post((0, 1, 7), "a"), Some(100));
        assert_eq!(m.post((0, 1, 7), "b"), Some(101));
        assert_eq!(m.post((0, 1, 7), "c"), None);
        assert_eq!(m.arrive((0, 1, 7), 102), Some("c"));
        assert_eq!(
            m.arrive((1, 2, 7), 103),
            None,
            "another communicator does not match"
        );
        assert_eq!(m.arrive((0, 2, 7), 104), Some("from 2"));
        assert_eq!(m.posted_count(), 0);
        assert_eq!(m.arrived().count(), 1);
    }

    #[test]
    fn any_source_takes_the_earliest_and_keeps_its_place() {
        let mut m = Matcher::<&str, u32>::new(ANY);
        m.arrive((0, 3, 5), 1);
        m.arrive((0, 1, 5), 2);
        assert_eq!(
            m.post((0, ANY, 5), "any"),
            Some(1),
            "the earliest arrival, from 3"
        );
        assert_eq!(m.post((0, ANY, 5), "any2"), Some(2));
        // Posted in order: any-source first, then an exact one: the arrival goes to the first.
        assert_eq!(m.post((0, ANY, 6), "first"), None);
        assert_eq!(m.post((0, 2, 6), "second"), None);
        assert_eq!(m.arrive((0, 2, 6), 10), Some("first"));
        assert_eq!(m.arrive((0, 2, 6), 11), Some("second"));
    }

    #[test]
    fn a_withdrawn_receive_no_longer_matches() {
        let mut m = Matcher::<u32, u32>::new(ANY);
        m.post((0, 1, 1), 7);
        m.withdraw(|p| *p != 7);
        assert_eq!(m.arrive((0, 1, 1), 9), None);
    }
}
