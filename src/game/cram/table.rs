//! The transposition table of the Cram search: a hash table of 64-bit keys that never takes
//! more than its byte budget, and stays exact at every size.
//!
//! Each key is first mixed by a bijection of 64-bit words (the finaliser of MurmurHash3:
//! xor-shifts and odd multipliers, each invertible), giving `x`. The table has `2^k` clusters
//! of eight words (one cache line). The top `k` bits of `x` name the entry's home cluster; a
//! second cluster is the home cluster xor a non-zero hash of the rest of `x`. An entry is one
//! word: the low `64 − k` bits of `x`, a bit saying which of its two clusters it sits in, and
//! 13 bits of payload: `64 − k + 14` bits, which fit a word because `k ≥ 14`. The payload's top
//! six bits are its rank: at the budget, entries of lower rank go first. The cluster an entry
//! sits in and that bit give back its home cluster, so the word and its place give back all of
//! `x`, hence the key: two keys never share an entry, so a value read is always the value of
//! the key asked for.
//!
//! The table starts at 16 384 clusters (1 MiB) and doubles when it is seven-eighths full or
//! both clusters of a new key are full in a table at least seven-sixteenths full, as long as
//! the doubled table fits the budget. Otherwise (at the budget, or a rare crowding of two
//! clusters in an emptier table, or of a doubled one) a new entry replaces the entry of lowest
//! rank of its two clusters or, if its own rank is lower than all sixteen, is not kept. A lost
//! entry costs time, never correctness: the search recomputes what it does not find.

/// The fewest bits of cluster index: the payload lives in the bits the index frees.
const MIN_BITS: u32 = 14;
/// Words of one cluster.
const WAYS: usize = 8;
/// Bytes of one cluster.
const CLUSTER_BYTES: u64 = (WAYS * 8) as u64;
/// The payload's width.
pub(super) const PAYLOAD: u32 = 13;

/// The smallest table, in bytes: a budget below it counts as this much.
pub(super) const MIN_TABLE_BYTES: u64 = CLUSTER_BYTES << MIN_BITS;

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Cluster([u64; WAYS]);

/// A bounded table from region keys to 13-bit payloads (non-zero), whose top six bits rank
/// them for eviction.
pub(super) struct Table {
    clusters: Vec<Cluster>,
    bits: u32,
    len: u64,
    limit_bytes: u64,
    evicted: u64,
}

/// MurmurHash3's 64-bit finaliser, a bijection.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The inverse of [`mix`] (for the tests, which read keys back).
#[cfg(test)]
#[inline]
fn unmix(mut x: u64) -> u64 {
    // x ^= x >> 33 is its own inverse for shifts of at least 32.
    x ^= x >> 33;
    x = x.wrapping_mul(0x9cb4_b2f8_1293_37db);
    x ^= x >> 33;
    x = x.wrapping_mul(0x4f74_430c_22a5_4005);
    x ^ (x >> 33)
}

impl Table {
    /// An empty table that will never take more than `limit_bytes` (at least
    /// [`MIN_TABLE_BYTES`]).
    pub(super) fn new(limit_bytes: u64) -> Table {
        Table {
            clusters: vec![Cluster::default(); 1 << MIN_BITS],
            bits: MIN_BITS,
            len: 0,
            limit_bytes,
            evicted: 0,
        }
    }

    /// Bytes the table takes now.
    pub(super) fn bytes(&self) -> u64 {
        self.clusters.len() as u64 * CLUSTER_BYTES
    }

    /// Entries held.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// Entries lost: dropped or replaced because the table could not grow within its budget,
    /// or (rarely) because both clusters of a key were full in a table not worth doubling.
    pub(super) fn evicted(&self) -> u64 {
        self.evicted
    }

    /// Changes the budget (the table does not shrink; it stops growing).
    pub(super) fn set_limit(&mut self, limit_bytes: u64) {
        self.limit_bytes = limit_bytes;
    }

    /// The home cluster, the tag (low bits of `x` and the cluster bit, as stored above the
    /// payload) for both clusters, and the second cluster.
    #[inline]
    fn slots(&self, x: u64) -> (usize, usize, u64) {
        let k = self.bits;
        let home = (x >> (64 - k)) as usize;
        let rest = x & ((1u64 << (64 - k)) - 1);
        let other = home ^ alternate(rest, k);
        (home, other, rest << 1)
    }

    /// The payload stored for `key`.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<u16> {
        let (home, other, tag) = self.slots(mix(key));
        let cluster = self.clusters.get(home)?;
        let mut full = true;
        for &w in &cluster.0 {
            if w == 0 {
                full = false;
            } else if w >> PAYLOAD == tag {
                return Some((w & ((1 << PAYLOAD) - 1)) as u16);
            }
        }
        // An entry goes to its second cluster only when its home cluster is full, and a
        // cluster never loses an entry (eviction replaces one), so a home cluster with a free
        // word means the key is not in the table.
        if !full {
            return None;
        }
        let tag = tag | 1;
        self.clusters
            .get(other)?
            .0
            .iter()
            .find(|&&w| w != 0 && w >> PAYLOAD == tag)
            .map(|&w| (w & ((1 << PAYLOAD) - 1)) as u16)
    }

    /// Stores `payload` (13 bits, non-zero) for `key`, replacing what was there.
    pub(super) fn insert(&mut self, key: u64, payload: u16) {
        let x = mix(key);
        let payload = u64::from(payload) & ((1 << PAYLOAD) - 1);
        if self.len >= self.grow_at() && self.try_grow() {
            return self.insert(key, payload as u16);
        }
        match self.place(x, payload) {
            Placed::Stored(new) => self.len += u64::from(new),
            Placed::Full => {
                if self.kick(x, payload) {
                    self.len += 1;
                } else if self.len < self.grow_at() / 2 {
                    // A rare crowding of two clusters in a table less than half full: one
                    // entry goes, the table does not double for it.
                    self.evict(x, payload);
                } else if self.try_grow() {
                    self.insert(key, payload as u16);
                } else {
                    self.evict(x, payload);
                }
            }
        }
    }

    /// Both clusters of `x` are full: moves an entry that sits in its home cluster, one of
    /// them, to its second cluster if that has a free word, and puts `x` in its place. (A
    /// cluster stays full, which is what [`Table::get`] relies on.)
    fn kick(&mut self, x: u64, payload: u64) -> bool {
        let (home, other, tag) = self.slots(x);
        for (c, new_tag) in [(home, tag), (other, tag | 1)] {
            let Some(cl) = self.clusters.get(c).copied() else {
                continue;
            };
            for (i, &w) in cl.0.iter().enumerate() {
                if w >> PAYLOAD & 1 == 1 {
                    continue;
                }
                let to = c ^ alternate(w >> (PAYLOAD + 1), self.bits);
                let free = self
                    .clusters
                    .get(to)
                    .and_then(|t| t.0.iter().position(|&v| v == 0));
                if let Some(j) = free {
                    self.clusters[to].0[j] = w | (1 << PAYLOAD);
                    self.clusters[c].0[i] = (new_tag << PAYLOAD) | payload;
                    return true;
                }
            }
        }
        false
    }

    /// Entries held when the table doubles.
    fn grow_at(&self) -> u64 {
        (self.clusters.len() * WAYS) as u64 / 8 * 7
    }

    /// Puts an entry into a free or matching word of its two clusters.
    fn place(&mut self, x: u64, payload: u64) -> Placed {
        let (home, other, tag) = self.slots(x);
        for (c, tag) in [(home, tag), (other, tag | 1)] {
            if let Some(cl) = self.clusters.get_mut(c) {
                if let Some(w) = cl.0.iter_mut().find(|w| **w != 0 && **w >> PAYLOAD == tag) {
                    *w = (tag << PAYLOAD) | payload;
                    return Placed::Stored(false);
                }
            }
        }
        for (c, tag) in [(home, tag), (other, tag | 1)] {
            if let Some(cl) = self.clusters.get_mut(c) {
                if let Some(w) = cl.0.iter_mut().find(|w| **w == 0) {
                    *w = (tag << PAYLOAD) | payload;
                    return Placed::Stored(true);
                }
            }
        }
        Placed::Full
    }

    /// Both clusters of `x` are full: the entry of lowest rank of the two clusters makes room,
    /// unless the new one ranks lower still. Either way one entry is lost, and counted.
    fn evict(&mut self, x: u64, payload: u64) {
        self.evicted += 1;
        let (home, other, tag) = self.slots(x);
        let rank = |w: u64| (w >> 7) & 0x3f;
        let mut best: Option<(u64, usize, usize, u64)> = None;
        for (c, tag) in [(home, tag), (other, tag | 1)] {
            if let Some(cl) = self.clusters.get(c) {
                for (i, &w) in cl.0.iter().enumerate() {
                    if best.is_none_or(|b| rank(w) < b.0) {
                        best = Some((rank(w), c, i, tag));
                    }
                }
            }
        }
        if let Some((s, c, i, tag)) = best {
            if s <= rank(payload) {
                if let Some(w) = self.clusters.get_mut(c).and_then(|cl| cl.0.get_mut(i)) {
                    *w = (tag << PAYLOAD) | payload;
                }
            }
        }
    }

    /// Doubles the table if the doubled table fits the budget.
    fn try_grow(&mut self) -> bool {
        if self.bytes().saturating_mul(2) > self.limit_bytes.max(MIN_TABLE_BYTES) {
            return false;
        }
        let old = std::mem::take(&mut self.clusters);
        let old_bits = self.bits;
        self.bits += 1;
        self.clusters = vec![Cluster::default(); old.len() * 2];
        for (c, cl) in old.iter().enumerate() {
            for &w in cl.0.iter().filter(|&&w| w != 0) {
                let rest = w >> (PAYLOAD + 1);
                let home = if w >> PAYLOAD & 1 == 0 {
                    c
                } else {
                    c ^ alternate(rest, old_bits)
                };
                let x = ((home as u64) << (64 - old_bits)) | rest;
                if let Placed::Full = self.place(x, w & ((1 << PAYLOAD) - 1)) {
                    // Rare: both clusters of the doubled table are full. One entry is lost.
                    self.evict(x, w & ((1 << PAYLOAD) - 1));
                    self.len -= 1;
                }
            }
        }
        true
    }

    /// Every key held with its payload (for tests).
    #[cfg(test)]
    fn entries(&self) -> Vec<(u64, u16)> {
        let mut out = Vec::new();
        for (c, cl) in self.clusters.iter().enumerate() {
            for &w in cl.0.iter().filter(|&&w| w != 0) {
                let rest = w >> (PAYLOAD + 1);
                let home = if w >> PAYLOAD & 1 == 0 {
                    c
                } else {
                    c ^ alternate(rest, self.bits)
                };
                let x = ((home as u64) << (64 - self.bits)) | rest;
                out.push((unmix(x), (w & ((1 << PAYLOAD) - 1)) as u16));
            }
        }
        out
    }
}

/// Whether an entry found a word.
enum Placed {
    /// Stored; `true` when it is a new entry.
    Stored(bool),
    /// Both clusters are full.
    Full,
}

/// The xor between an entry's two clusters: a non-zero hash of the low bits of `x`, `k` bits.
#[inline]
fn alternate(rest: u64, k: u32) -> usize {
    ((rest.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - k)) | 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn mixing_is_a_bijection() {
        for k in [0u64, 1, 2, 0xdead_beef, u64::MAX, 1 << 63] {
            assert_eq!(unmix(mix(k)), k);
        }
    }

    #[test]
    fn every_value_read_is_the_value_stored_across_growth() {
        let mut t = Table::new(64 << 20);
        let mut model = HashMap::new();
        let mut k = 1u64;
        for i in 0..400_000u64 {
            k = k
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let key = k >> (i % 20);
            let v = 1 + (key % 8000) as u16;
            t.insert(key, v);
            model.insert(key, v);
        }
        assert!(t.bytes() <= 64 << 20);
        // A crowded pair of clusters may lose an entry, and says so; what is read is always
        // what was stored last for that key.
        let mut want = Vec::new();
        for (&key, &v) in &model {
            if let Some(got) = t.get(key) {
                assert_eq!(got, v, "{key}");
                want.push((key, v));
            }
        }
        assert!(want.len() as u64 + t.evicted() >= model.len() as u64);
        assert!(t.evicted() * 1000 < model.len() as u64, "{}", t.evicted());
        assert_eq!(t.len(), want.len() as u64);
        let mut held = t.entries();
        held.sort_unstable();
        want.sort_unstable();
        assert_eq!(held, want);
    }

    #[test]
    fn a_full_table_stays_in_its_budget_and_only_forgets() {
        let mut t = Table::new(0);
        let mut model = HashMap::new();
        for key in 0..1_000_000u64 {
            let v = 1 + (key % 8101) as u16;
            t.insert(key * 7919, v);
            model.insert(key * 7919, v);
        }
        assert_eq!(t.bytes(), MIN_TABLE_BYTES);
        assert!(t.evicted() > 0);
        for (key, v) in &model {
            if let Some(got) = t.get(*key) {
                assert_eq!(got, *v);
            }
        }
    }
}
