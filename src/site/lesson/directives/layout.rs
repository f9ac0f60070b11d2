//! The layered layout shared by the Green Hackenbush drawing and the game graph.
//!
//! Both draw a graph in horizontal layers (Hackenbush from the ground up, by distance from the
//! ground; a game graph from the root down, by the longest line of play), and both must keep
//! edges from crossing more than they need to. The classic answer (Sugiyama's method, in its
//! simplest form) is the *barycentre* heuristic: going layer by layer away from the first,
//! sort each layer by the mean position of a node's parents in the layer before, which is
//! already placed. The drawings differ only in how a sorted layer is spread across the width
//! (evenly spaced slots, or boxes as wide as their labels), so that is left to the caller.

/// Sorts every layer by the barycentre of its nodes' parents and places it.
///
/// Nodes are numbered `0 … n−1` with `n = parents.len()`; `layers` lists them layer by layer,
/// starting with the layer that is placed first. A node's parents lie in earlier layers and are
/// summed in the order given. A node with no parent sorts by `fallback(node)`; ties go to the
/// smaller node number. Once a layer is sorted, `place(layer, x)` writes the horizontal
/// position of each of its nodes into `x`. Returns `x`, indexed by node.
pub(crate) fn barycentre_layers(
    layers: &mut [Vec<usize>],
    parents: &[Vec<usize>],
    fallback: impl Fn(usize) -> f64,
    mut place: impl FnMut(&[usize], &mut [f64]),
) -> Vec<f64> {
    let mut x = vec![0.0f64; parents.len()];
    for layer in layers.iter_mut() {
        let mut keyed: Vec<(f64, usize)> = layer
            .iter()
            .map(|&i| {
                let p = &parents[i];
                let key = if p.is_empty() {
                    fallback(i)
                } else {
                    p.iter().map(|&j| x[j]).sum::<f64>() / p.len() as f64
                };
                (key, i)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        *layer = keyed.into_iter().map(|(_, i)| i).collect();
        place(layer, &mut x);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_follow_their_parents_and_orphans_their_fallback() {
        // Layer 0: nodes 0 and 1, which sort by fallback (1 before 0); layer 1: node 2 under
        // node 0, node 3 under node 1, node 4 under both.
        let parents = vec![vec![], vec![], vec![0], vec![1], vec![0, 1]];
        let mut layers = vec![vec![0, 1], vec![2, 3, 4]];
        let x = barycentre_layers(
            &mut layers,
            &parents,
            |i| if i == 0 { 5.0 } else { 1.0 },
            |layer, x| {
                for (slot, &i) in layer.iter().enumerate() {
                    x[i] = slot as f64 * 10.0;
                }
            },
        );
        assert_eq!(layers, vec![vec![1, 0], vec![3, 4, 2]]);
        assert_eq!(x, vec![10.0, 0.0, 20.0, 0.0, 10.0]);
    }
}
