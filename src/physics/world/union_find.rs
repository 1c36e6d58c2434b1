//! Disjoint sets with path halving and union by size, used to find islands (§11).

/// A union-find forest over the indices `0..len`.
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// Resets to `len` singleton sets, keeping the memory.
    pub fn reset(&mut self, len: usize) {
        self.parent.clear();
        self.parent.extend(0..len as u32);
        self.size.clear();
        self.size.resize(len, 1);
    }

    /// The representative of `x`'s set.
    ///
    /// `x` is checked against the length once; the walk up the forest is not. Every entry
    /// of `parent` is an index below its length: `reset` writes `0..len`, `find` writes a
    /// grandparent (an entry), and `union` writes a root that `find` returned. `size` is
    /// as long as `parent` (both are only resized together, in `reset`).
    #[inline]
    pub fn find(&mut self, mut x: u32) -> u32 {
        assert!((x as usize) < self.parent.len(), "union-find index out of range");
        let parent = &mut self.parent[..];
        // SAFETY: `x` starts in range (asserted) and every entry is in range (see above).
        unsafe {
            loop {
                let up = *parent.get_unchecked(x as usize);
                if up == x {
                    return x;
                }
                // Path halving: point every other node at its grandparent.
                let grandparent = *parent.get_unchecked(up as usize);
                *parent.get_unchecked_mut(x as usize) = grandparent;
                x = grandparent;
            }
        }
    }

    /// Merges the sets of `a` and `b`.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        // SAFETY: `find` returns entries of `parent`, which are below its length, and
        // `size` is as long as `parent` (see `find`).
        unsafe {
            if self.size.get_unchecked(a as usize) < self.size.get_unchecked(b as usize) {
                std::mem::swap(&mut a, &mut b);
            }
            *self.parent.get_unchecked_mut(b as usize) = a;
            let size_b = *self.size.get_unchecked(b as usize);
            *self.size.get_unchecked_mut(a as usize) += size_b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_are_transitive_and_separate_sets_stay_apart() {
        let mut sets = UnionFind::default();
        sets.reset(6);
        sets.union(0, 1);
        sets.union(2, 1);
        sets.union(4, 5);
        assert_eq!(sets.find(0), sets.find(2));
        assert_eq!(sets.find(4), sets.find(5));
        assert_ne!(sets.find(0), sets.find(4));
        assert_ne!(sets.find(3), sets.find(0));
    }
}
