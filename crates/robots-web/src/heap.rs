//! The npm build's WebAssembly heap, grown in large steps rather than a few pages at a
//! time, as each `memory.grow` can cost V8 a full garbage collection.
//!
//! V8 counts the memory as external, and a growth past its budget starts a collection;
//! when JavaScript frees files late (FinalizationRegistry callbacks wait for the event
//! loop), the default allocator grew the memory every few parses, and the npm package's
//! corpus pass took ten times as long.

use std::alloc::{GlobalAlloc, Layout, System};
use std::arch::wasm32;

/// The system allocator (dlmalloc), which, whenever it had to grow the memory, is made
/// to grow it again by as much as the memory holds (16 MiB to 256 MiB) in one block that
/// is freed at once: it stays free at the top of the heap for what comes next.
pub struct GrowInSteps;

const PAGE: usize = 64 * 1024;
const LEAST: usize = 16 << 20;
const MOST: usize = 256 << 20;

impl GrowInSteps {
    fn after(&self, pages_before: usize) {
        let pages = wasm32::memory_size(0);
        if pages == pages_before {
            return;
        }
        let step = (pages * PAGE).clamp(LEAST, MOST);
        if let Ok(layout) = Layout::from_size_align(step, 16) {
            // SAFETY: a block of non-zero size, freed with the layout it was made with.
            unsafe {
                let block = System.alloc(layout);
                if !block.is_null() {
                    System.dealloc(block, layout);
                }
            }
        }
    }
}

// SAFETY: every call is forwarded to `System` with its own arguments; the extra block
// is allocated and freed with one layout.
unsafe impl GlobalAlloc for GrowInSteps {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = wasm32::memory_size(0);
        let ptr = unsafe { System.alloc(layout) };
        self.after(before);
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = wasm32::memory_size(0);
        let ptr = unsafe { System.alloc_zeroed(layout) };
        self.after(before);
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = wasm32::memory_size(0);
        let ptr = unsafe { System.realloc(ptr, layout, new_size) };
        self.after(before);
        ptr
    }
}

#[global_allocator]
static HEAP: GrowInSteps = GrowInSteps;
