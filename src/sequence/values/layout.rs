//! Where value `i` lies in a values array of segments: values are appended one or two
//! bytes wide and a new, wider segment starts when a larger value appears, so nothing
//! written is ever rewritten (a file of values only grows).

use crate::sequence::values::cell::Width;

/// One run of values of one width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The index of its first value.
    pub start: u64,
    /// Bytes a value.
    pub width: Width,
    /// The byte offset of its first value.
    pub offset: u64,
}

/// The segments of a values array and its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    segments: Vec<Segment>,
    len: u64,
}

impl Default for Layout {
    fn default() -> Self {
        Layout::new()
    }
}

impl Layout {
    /// An empty array, one byte a value.
    pub fn new() -> Layout {
        Layout { segments: vec![Segment { start: 0, width: Width::One, offset: 0 }], len: 0 }
    }

    /// A layout read back from a checkpoint: `segments` (first at 0, starts increasing,
    /// widths increasing) holding `len` values; `None` if they are not such a list.
    pub fn from_parts(segments: Vec<(u64, Width)>, len: u64) -> Option<Layout> {
        let mut layout = Layout { segments: Vec::new(), len };
        for (start, width) in segments {
            let offset = match layout.segments.last() {
                None if start != 0 => return None,
                None => 0,
                Some(last) if start <= last.start || width <= last.width || start > len => {
                    return None
                }
                Some(last) => last.offset + (start - last.start) * last.width.bytes(),
            };
            layout.segments.push(Segment { start, width, offset });
        }
        (!layout.segments.is_empty()).then_some(layout)
    }

    /// The segments as `(start, width)` pairs.
    pub fn parts(&self) -> Vec<(u64, Width)> {
        self.segments.iter().map(|s| (s.start, s.width)).collect()
    }

    /// Values held.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the values take.
    pub fn byte_len(&self) -> u64 {
        let last = self.last();
        last.offset + (self.len - last.start) * last.width.bytes()
    }

    /// The width of the values appended now.
    pub fn width(&self) -> Width {
        self.last().width
    }

    fn last(&self) -> &Segment {
        self.segments.last().expect("a layout has a segment")
    }

    /// Appends one value: its width, after opening a wider segment if it needs one.
    pub fn push(&mut self, value: u32) -> Width {
        let needed = Width::of(value);
        if needed > self.width() {
            let offset = self.byte_len();
            self.segments.push(Segment { start: self.len, width: needed, offset });
        }
        self.len += 1;
        self.width()
    }

    /// Drops the values from `len` on (a resumed run cuts what followed its checkpoint).
    pub fn truncate(&mut self, len: u64) {
        while self.segments.len() > 1 && self.last().start >= len {
            self.segments.pop();
        }
        self.len = self.len.min(len);
    }

    /// The byte offset and width of value `index` (`index < len`).
    pub fn locate(&self, index: u64) -> (u64, Width) {
        let at = self.segments.partition_point(|s| s.start <= index) - 1;
        let segment = &self.segments[at];
        (segment.offset + (index - segment.start) * segment.width.bytes(), segment.width)
    }

    /// The pieces of `start..end` (within `0..len`) by segment: `(first, last + 1, byte
    /// offset of first, width)`.
    pub fn pieces(&self, start: u64, end: u64) -> Vec<(u64, u64, u64, Width)> {
        let mut pieces = Vec::new();
        let mut at = start;
        while at < end {
            let index = self.segments.partition_point(|s| s.start <= at) - 1;
            let segment = &self.segments[index];
            let stop = self.segments.get(index + 1).map_or(end, |next| next.start.min(end));
            let offset = segment.offset + (at - segment.start) * segment.width.bytes();
            pieces.push((at, stop, offset, segment.width));
            at = stop;
        }
        pieces
    }

    /// The bytes of the first `count` values.
    pub fn bytes_of_first(&self, count: u64) -> u64 {
        if count == 0 {
            return 0;
        }
        let (offset, width) = self.locate(count - 1);
        offset + width.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_larger_value_opens_a_wider_segment_and_offsets_follow() {
        let mut layout = Layout::new();
        for value in [1, 2, 300, 4, 70000, 5] {
            layout.push(value);
        }
        assert_eq!(layout.parts(), vec![(0, Width::One), (2, Width::Two), (4, Width::Four)]);
        assert_eq!(layout.byte_len(), 2 + 4 + 8);
        assert_eq!(layout.locate(1), (1, Width::One));
        assert_eq!(layout.locate(3), (4, Width::Two));
        assert_eq!(layout.locate(5), (10, Width::Four));
        assert_eq!(layout.bytes_of_first(3), 4);
        let back = Layout::from_parts(layout.parts(), 6).unwrap();
        assert_eq!(back, layout);
        layout.truncate(3);
        assert_eq!(layout.parts(), vec![(0, Width::One), (2, Width::Two)]);
        assert_eq!(layout.byte_len(), 4);
    }

    #[test]
    fn malformed_segment_lists_are_refused() {
        assert!(Layout::from_parts(vec![], 0).is_none());
        assert!(Layout::from_parts(vec![(1, Width::One)], 3).is_none());
        assert!(Layout::from_parts(vec![(0, Width::Two), (2, Width::One)], 3).is_none());
        assert!(Layout::from_parts(vec![(0, Width::One), (9, Width::Two)], 3).is_none());
    }
}
