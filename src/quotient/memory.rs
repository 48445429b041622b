//! The memory budget of one quotient computation: what grows with the quotient is counted
//! against the budget before it is allocated, and allocated fallibly.
//!
//! A quotient's needs are not known before it is computed (a heap may refine its
//! candidate many times, a proof explore millions of states), so unlike the engine's runs
//! it is not planned once: every table that grows with the monoid, the heaps or the
//! states is counted when it is made, by capacity, in a [`Hold`] that gives its bytes back
//! when dropped. A count past the budget is [`QuotientError::BeyondMemory`] with the need
//! at that point; memory within it that the system refuses anyway is
//! [`QuotientError::OutOfMemory`]; neither aborts. The counts depend on the computation
//! alone, so the same computation under the same budget stops at the same point. The
//! computation runs on one thread, so the count is a [`Cell`].

use std::cell::Cell;

use crate::quotient::QuotientError;

/// The result of a step that may pass the budget.
pub(crate) type Result<T> = std::result::Result<T, QuotientError>;

/// The budget of one computation and what it holds now.
#[derive(Debug)]
pub(crate) struct Meter {
    limit: u64,
    held: Cell<u64>,
    /// The heap being added, as errors name it.
    heap: Cell<u32>,
}

impl Meter {
    /// A budget of `limit` bytes, nothing held.
    pub fn new(limit: u64) -> Meter {
        Meter { limit, held: Cell::new(0), heap: Cell::new(0) }
    }

    /// Errors name heap `heap` from now on.
    pub fn at_heap(&self, heap: u32) {
        self.heap.set(heap);
    }

    /// A hold of `bytes`, refused past the budget.
    pub fn hold(&self, bytes: u64) -> Result<Hold<'_>> {
        let mut hold = Hold { meter: self, bytes: 0 };
        hold.grow(bytes)?;
        Ok(hold)
    }

    /// Whether `more` bytes fit beside what is held.
    fn fits(&self, more: u64) -> bool {
        self.held.get().saturating_add(more) <= self.limit
    }

    fn beyond(&self, more: u64) -> QuotientError {
        let (heap, held_bytes, limit_bytes) = (self.heap.get(), self.held.get(), self.limit);
        let need_bytes = held_bytes.saturating_add(more);
        QuotientError::BeyondMemory { heap, held_bytes, need_bytes, limit_bytes }
    }

    fn refused(&self, bytes: u64) -> QuotientError {
        QuotientError::OutOfMemory { heap: self.heap.get(), bytes }
    }
}

/// Bytes of `len` values of `T`.
fn bytes_of<T>(len: usize) -> u64 {
    (len as u64).saturating_mul(std::mem::size_of::<T>() as u64)
}

/// Bytes held from a [`Meter`] until dropped.
#[derive(Debug)]
pub(crate) struct Hold<'m> {
    meter: &'m Meter,
    bytes: u64,
}

impl<'m> Hold<'m> {
    /// The budget this hold counts against, for holds of a narrower scope.
    pub fn meter(&self) -> &'m Meter {
        self.meter
    }

    /// Holds `bytes` more, refused past the budget.
    pub fn grow(&mut self, bytes: u64) -> Result<()> {
        if !self.meter.fits(bytes) {
            return Err(self.meter.beyond(bytes));
        }
        self.meter.held.set(self.meter.held.get() + bytes);
        self.bytes += bytes;
        Ok(())
    }

    /// Gives back `bytes` of what this hold counts (memory freed before the hold ends).
    pub fn shrink(&mut self, bytes: u64) {
        let bytes = bytes.min(self.bytes);
        self.bytes -= bytes;
        self.meter.held.set(self.meter.held.get() - bytes);
    }

    /// An empty vector with room for exactly `len` values, counted first.
    pub fn with_capacity<T>(&mut self, len: usize) -> Result<Vec<T>> {
        self.grow(bytes_of::<T>(len))?;
        let mut v = Vec::new();
        v.try_reserve_exact(len).map_err(|_| self.meter.refused(bytes_of::<T>(len)))?;
        Ok(v)
    }

    /// `len` copies of `value`, counted first.
    pub fn vec<T: Clone>(&mut self, len: usize, value: T) -> Result<Vec<T>> {
        let mut v = self.with_capacity(len)?;
        v.resize(len, value);
        Ok(v)
    }

    /// Room for `additional` more values in `v`, grown as `Vec` grows (doubled, so pushes
    /// stay amortised), the new capacity counted first. Where doubling passes the budget
    /// it grows by an eighth, else by all the budget has left, so that the budget is used
    /// up in a few steps before a refusal, which then names the least growth.
    pub fn reserve<T>(&mut self, v: &mut Vec<T>, additional: usize) -> Result<()> {
        let needed = v.len().saturating_add(additional);
        let old = v.capacity();
        if needed <= old {
            return Ok(());
        }
        let doubled = needed.max(old.saturating_mul(2)).max(4);
        let modest = needed.max(old.saturating_add(old / 8));
        let left = self.meter.limit.saturating_sub(self.meter.held.get());
        let rest = old.saturating_add((left / std::mem::size_of::<T>().max(1) as u64) as usize);
        let capacity = [doubled, modest, rest]
            .into_iter()
            .find(|&c| c >= needed && self.meter.fits(bytes_of::<T>(c - old)))
            .unwrap_or(needed);
        let more = bytes_of::<T>(capacity - old);
        self.grow(more)?;
        v.try_reserve_exact(capacity - v.len()).map_err(|_| self.meter.refused(more))
    }

    /// The error for `bytes` the system refused although this hold counts them.
    pub fn refused(&self, bytes: u64) -> QuotientError {
        self.meter.refused(bytes)
    }

    /// Room for `len` more values in `v`, whose bytes this hold counts already.
    pub fn reserve_counted<T>(&self, v: &mut Vec<T>, len: usize) -> Result<()> {
        v.try_reserve_exact(len).map_err(|_| self.meter.refused(bytes_of::<T>(len)))
    }

    /// Pushes `value` onto `v`, any growth counted first.
    pub fn push<T>(&mut self, v: &mut Vec<T>, value: T) -> Result<()> {
        self.reserve(v, 1)?;
        v.push(value);
        Ok(())
    }

    /// Appends `values` to `v`, any growth counted first.
    pub fn extend_from_slice<T: Clone>(&mut self, v: &mut Vec<T>, values: &[T]) -> Result<()> {
        self.reserve(v, values.len())?;
        v.extend_from_slice(values);
        Ok(())
    }
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        self.meter.held.set(self.meter.held.get() - self.bytes);
    }
}

/// A value and the hold that counts its memory, given back with it.
#[derive(Debug)]
pub(crate) struct Held<'m, T> {
    value: T,
    /// Counts the value's bytes, given back when dropped.
    hold: Hold<'m>,
}

impl<'m, T> Held<'m, T> {
    /// `value`, whose memory `hold` counts.
    pub fn new(value: T, hold: Hold<'m>) -> Held<'m, T> {
        Held { value, hold }
    }
}

impl<'m, T> Held<'m, T> {
    /// The value to change, and the hold that counts what it grows by.
    pub fn parts_mut(&mut self) -> (&mut T, &mut Hold<'m>) {
        (&mut self.value, &mut self.hold)
    }
}

impl<T> std::ops::Deref for Held<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_count_capacities_and_give_them_back_when_dropped() {
        let meter = Meter::new(1000);
        let mut hold = meter.hold(100).unwrap();
        let mut v: Vec<u64> = hold.with_capacity(10).unwrap();
        assert_eq!(meter.held.get(), 180);
        for i in 0..11 {
            hold.push(&mut v, i).unwrap();
        }
        // Ten fitted; the eleventh doubled the room to twenty.
        assert_eq!((v.capacity(), meter.held.get()), (20, 260));
        // Near the budget the room grows by an eighth, then by all that is left.
        let mut near = meter.hold(588).unwrap();
        let mut w: Vec<u64> = near.with_capacity(16).unwrap();
        w.extend(0..16);
        near.push(&mut w, 16).unwrap();
        assert_eq!((w.capacity(), meter.held.get()), (18, 992));
        near.push(&mut w, 17).unwrap();
        near.push(&mut w, 18).unwrap();
        assert_eq!((w.capacity(), meter.held.get()), (19, 1000));
        // At the budget nothing more fits: the refusal names one value more.
        assert!(matches!(
            near.push(&mut w, 19),
            Err(QuotientError::BeyondMemory { need_bytes: 1008, .. })
        ));
        drop((near, w));
        assert_eq!(meter.held.get(), 260);
        {
            let _inner = hold.meter().hold(700).unwrap();
            assert_eq!(meter.held.get(), 960);
        }
        hold.shrink(60);
        assert_eq!(meter.held.get(), 200);
        drop(hold);
        assert_eq!(meter.held.get(), 0);
        // Past an eighth, the room grows by all the budget has left.
        let mut bytes = meter.hold(0).unwrap();
        let mut v: Vec<u8> = bytes.vec(800, 0).unwrap();
        bytes.push(&mut v, 1).unwrap();
        assert_eq!(v.capacity(), 900);
        v.resize(900, 0);
        bytes.push(&mut v, 1).unwrap();
        assert_eq!((v.capacity(), meter.held.get()), (1000, 1000));
    }

    #[test]
    fn a_hold_past_the_budget_names_the_need_and_holds_nothing_more() {
        let meter = Meter::new(1000);
        meter.at_heap(7);
        let _hold = meter.hold(600).unwrap();
        match meter.hold(500) {
            Err(QuotientError::BeyondMemory {
                heap: 7,
                held_bytes: 600,
                need_bytes: 1100,
                limit_bytes: 1000,
            }) => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(meter.held.get(), 600);
        let refused = meter.hold(0).unwrap().with_capacity::<u64>(usize::MAX / 4).unwrap_err();
        assert!(matches!(refused, QuotientError::BeyondMemory { .. }), "{refused}");
    }

    #[test]
    fn memory_the_system_refuses_within_the_budget_is_an_error_not_an_abort() {
        let meter = Meter::new(u64::MAX);
        let refused = meter.hold(0).unwrap().with_capacity::<u64>(usize::MAX / 16).unwrap_err();
        assert!(matches!(refused, QuotientError::OutOfMemory { .. }), "{refused}");
    }
}
