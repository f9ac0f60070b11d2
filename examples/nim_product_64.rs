//! Library Checker "Nim Product (64 bit)": reads `T`, then `T` lines `A B` (each below
//! `2^64`), and prints `A ⊗ B` for each line.
//!
//! ```text
//! cargo run --release --no-default-features --example nim_product_64 < input.txt
//! ```

use std::io::{self, Read, Write};

use nimbook::nim::mul64;

/// Parses the unsigned decimal numbers in `input`, skipping any other bytes. A number
/// longer than `u64` wraps, as the input format never has one.
fn numbers(input: &[u8]) -> impl Iterator<Item = u64> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < input.len() && !input[i].is_ascii_digit() {
            i += 1;
        }
        if i == input.len() {
            return None;
        }
        let mut v = 0u64;
        while i < input.len() && input[i].is_ascii_digit() {
            v = v.wrapping_mul(10).wrapping_add((input[i] - b'0') as u64);
            i += 1;
        }
        Some(v)
    })
}

/// Appends `v` in decimal and a newline.
fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut n = buf.len();
    loop {
        n -= 1;
        buf[n] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[n..]);
    out.push(b'\n');
}

fn main() -> io::Result<()> {
    let mut input = Vec::new();
    io::stdin().lock().read_to_end(&mut input)?;
    let mut it = numbers(&input);
    let t = it.next().unwrap_or(0);
    let mut out = Vec::with_capacity((t as usize).min(1 << 24) * 21);
    for _ in 0..t {
        let (Some(a), Some(b)) = (it.next(), it.next()) else { break };
        push_u64(&mut out, mul64(a, b));
    }
    io::stdout().lock().write_all(&out)
}
