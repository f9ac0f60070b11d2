//! Green Hackenbush: grounded graphs, their notation, and their values by the colon and fusion
//! principles.
//!
//! The value of a graph is computed in three steps.
//!
//! 1. Edges not connected to the ground (vertex 0) are dropped: they can never be reached.
//! 2. **Fusion.** The *bridges* (edges on no cycle) are found by a depth-first search with low
//!    links. Removing them leaves the 2-edge-connected pieces; the fusion principle lets every
//!    piece be fused into a single vertex, each of its edges becoming a loop, and each loop is
//!    worth a twig of value 1, so a piece with `k` edges contributes `k mod 2`.
//! 3. **Colon principle.** The fused graph is a tree of bridges rooted at the ground's piece.
//!    The value of a vertex is the nim-sum of its loops and, for each bridge going up to a child
//!    vertex `c`, the value of `c` plus one (a bridge carrying a subtree of value `x` is a stalk
//!    of `x + 1` edges).

use std::fmt;

use super::GameError;

/// A grounded multigraph: vertex 0 is the ground. Edges are kept as `(u, v)` with `u ≤ v`, in
/// sorted order, so equal graphs compare equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Graph {
    edges: Vec<(u32, u32)>,
}

impl Graph {
    /// The graph with the given edges (any order, any orientation).
    pub fn new(edges: impl IntoIterator<Item = (u32, u32)>) -> Graph {
        let mut edges: Vec<(u32, u32)> = edges
            .into_iter()
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        edges.sort_unstable();
        Graph { edges }
    }

    /// The edges, each with its smaller end first, sorted.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The graph without the edges that are not connected to the ground.
    pub fn grounded(&self) -> Graph {
        let reach = self.reachable();
        Graph {
            edges: self
                .edges
                .iter()
                .copied()
                .filter(|&(a, _)| reach.contains(&a))
                .collect(),
        }
    }

    fn reachable(&self) -> std::collections::HashSet<u32> {
        let mut adj: std::collections::HashMap<u32, Vec<u32>> = std::collections::HashMap::new();
        for &(a, b) in &self.edges {
            adj.entry(a).or_default().push(b);
            adj.entry(b).or_default().push(a);
        }
        let mut seen = std::collections::HashSet::new();
        seen.insert(0u32);
        let mut stack = vec![0u32];
        while let Some(v) = stack.pop() {
            for &u in adj.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
                if seen.insert(u) {
                    stack.push(u);
                }
            }
        }
        seen
    }

    /// The positions after deleting each edge (and everything that falls), one per edge.
    pub fn moves(&self) -> Vec<Graph> {
        (0..self.edges.len())
            .map(|i| {
                let mut edges = self.edges.clone();
                edges.remove(i);
                Graph { edges }.grounded()
            })
            .collect()
    }

    /// The Grundy value, by the fusion and colon principles.
    pub fn value(&self) -> u64 {
        let g = self.grounded();
        if g.edges.is_empty() {
            return 0;
        }
        // Relabel vertices 0..n with the ground first.
        let mut labels: Vec<u32> = g.edges.iter().flat_map(|&(a, b)| [a, b]).collect();
        labels.push(0);
        labels.sort_unstable();
        labels.dedup();
        let idx = |v: u32| labels.binary_search(&v).unwrap_or(0);
        let n = labels.len();
        let edges: Vec<(usize, usize)> = g.edges.iter().map(|&(a, b)| (idx(a), idx(b))).collect();
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (id, &(a, b)) in edges.iter().enumerate() {
            if a != b {
                adj[a].push((b, id));
                adj[b].push((a, id));
            }
        }
        let bridge = bridges(n, &adj, edges.len());
        // 2-edge-connected pieces: components without the bridges.
        let mut piece = vec![usize::MAX; n];
        let mut npieces = 0;
        for s in 0..n {
            if piece[s] != usize::MAX {
                continue;
            }
            piece[s] = npieces;
            let mut stack = vec![s];
            while let Some(v) = stack.pop() {
                for &(u, id) in &adj[v] {
                    if !bridge[id] && piece[u] == usize::MAX {
                        piece[u] = npieces;
                        stack.push(u);
                    }
                }
            }
            npieces += 1;
        }
        let mut loops = vec![0u64; npieces];
        let mut tree: Vec<Vec<usize>> = vec![Vec::new(); npieces];
        for (id, &(a, b)) in edges.iter().enumerate() {
            if bridge[id] {
                tree[piece[a]].push(piece[b]);
                tree[piece[b]].push(piece[a]);
            } else {
                loops[piece[a]] ^= 1;
            }
        }
        // Colon principle on the tree of pieces, rooted at the ground's piece, iteratively.
        let root = piece[0];
        let mut parent = vec![usize::MAX; npieces];
        let mut order = Vec::with_capacity(npieces);
        let mut stack = vec![root];
        parent[root] = root;
        while let Some(v) = stack.pop() {
            order.push(v);
            for &u in &tree[v] {
                if parent[u] == usize::MAX {
                    parent[u] = v;
                    stack.push(u);
                }
            }
        }
        let mut value = loops;
        for &v in order.iter().rev() {
            if v != root {
                let p = parent[v];
                value[p] ^= value[v] + 1;
            }
        }
        value[root]
    }
}

/// Marks the bridges of a multigraph (loops excluded from `adj`), by an iterative depth-first
/// search with low links; parallel edges are told apart by their ids.
fn bridges(n: usize, adj: &[Vec<(usize, usize)>], m: usize) -> Vec<bool> {
    let mut bridge = vec![false; m];
    let mut disc = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut time = 0;
    for s in 0..n {
        if disc[s] != usize::MAX {
            continue;
        }
        // (vertex, edge id used to enter it, next adjacency index)
        let mut stack: Vec<(usize, usize, usize)> = vec![(s, usize::MAX, 0)];
        disc[s] = time;
        low[s] = time;
        time += 1;
        while let Some(top) = stack.last_mut() {
            let (v, via, i) = *top;
            if i < adj[v].len() {
                top.2 += 1;
                let (u, id) = adj[v][i];
                if id == via {
                    continue;
                }
                if disc[u] == usize::MAX {
                    disc[u] = time;
                    low[u] = time;
                    time += 1;
                    stack.push((u, id, 0));
                } else {
                    low[v] = low[v].min(disc[u]);
                }
            } else {
                stack.pop();
                if let Some(&(p, _, _)) = stack.last() {
                    low[p] = low[p].min(low[v]);
                    if low[v] > disc[p] && via != usize::MAX {
                        bridge[via] = true;
                    }
                }
            }
        }
    }
    bridge
}

impl fmt::Display for Graph {
    /// The notation of [`parse_hackenbush`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (a, b)) in self.edges.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{a}-{b}")?;
        }
        Ok(())
    }
}

/// Parses a Green Hackenbush graph: edges `u-v` separated by whitespace, vertices numbered by
/// decimal numbers, vertex 0 the ground. Multi-edges and loops (`2-2`) are allowed; `""` is the
/// empty graph. Example: `"0-1 1-2 1-3"` is a ground edge carrying two twigs.
pub fn parse_hackenbush(s: &str) -> Result<Graph, GameError> {
    let mut edges = Vec::new();
    let mut pos = 0;
    for token in s.split_whitespace() {
        // Byte offset of this token: search from the end of the previous one.
        let offset = s[pos..].find(token).map(|i| i + pos).unwrap_or(pos);
        pos = offset + token.len();
        let bad = |reason: &str| GameError::MalformedGraph {
            input: s.to_string(),
            token: token.to_string(),
            offset,
            reason: reason.to_string(),
        };
        let (a, b) = token
            .split_once('-')
            .ok_or_else(|| bad("an edge is written `u-v`"))?;
        let vertex = |x: &str| -> Result<u32, GameError> {
            if x.is_empty() || !x.bytes().all(|c| c.is_ascii_digit()) {
                return Err(bad("a vertex is a decimal number"));
            }
            x.parse::<u32>()
                .map_err(|_| bad("vertex numbers must be below 2^32"))
        };
        edges.push((vertex(a)?, vertex(b)?));
    }
    Ok(Graph::new(edges))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stalks_trees_and_cycles() {
        let v = |s: &str| parse_hackenbush(s).unwrap().value();
        assert_eq!(v(""), 0);
        assert_eq!(v("0-1 1-2 2-3"), 3);
        assert_eq!(v("0-1 1-2 1-3"), 1);
        assert_eq!(v("0-0"), 1);
        assert_eq!(v("0-1 0-1"), 0);
        // a triangle on the ground: fused into three loops
        assert_eq!(v("0-1 1-2 2-0"), 1);
        // floating edges do not count
        assert_eq!(v("0-1 5-6"), 1);
    }

    #[test]
    fn errors_name_token_and_offset() {
        let e = parse_hackenbush("0-1  1-x").unwrap_err();
        assert!(e.to_string().contains("`1-x` at byte 5"), "{e}");
        let e = parse_hackenbush("0-1 12").unwrap_err();
        assert!(e.to_string().contains("`12` at byte 4"), "{e}");
    }
}
