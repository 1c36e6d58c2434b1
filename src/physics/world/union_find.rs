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
    #[inline]
    pub fn find(&mut self, mut x: u32) -> u32 {
        let parent = &mut self.parent[..];
        loop {
            let up = parent[x as usize];
            if up == x {
                return x;
            }
            // Path halving: point every other node at its grandparent.
            let grandparent = parent[up as usize];
            parent[x as usize] = grandparent;
            x = grandparent;
        }
    }

    /// Merges the sets of `a` and `b`.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
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
