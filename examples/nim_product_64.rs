//! Library Checker "Nim Product (64 bit)": reads `T`, then `T` lines `A B` (each below
//! `2^64`), and prints `A ⊗ B` for each line.
//!
//! ```text
//! cargo run --release --no-default-features --example nim_product_64 < input.txt
//! ```
//!
//! The input is processed in chunks that stay in cache: numbers are parsed eight digits at a
//! time where possible, products come from the engine's 64-bit path, and results are printed
//! two digits at a time into an output buffer that is flushed in large writes.

use std::io::{self, Read, Write};

use nimbook::nim::mul64;

const CHUNK: usize = 1 << 16;

/// Whether all eight bytes of `w` (little-endian) are ASCII digits.
#[inline]
fn eight_digits(w: u64) -> bool {
    let lo = w.wrapping_sub(0x3030_3030_3030_3030);
    let hi = w.wrapping_add(0x4646_4646_4646_4646);
    (lo | hi) & 0x8080_8080_8080_8080 == 0
}

/// The value of eight ASCII digits, first digit in the lowest byte.
#[inline]
fn eight_value(w: u64) -> u64 {
    let mut v = w & 0x0f0f_0f0f_0f0f_0f0f;
    // Combine neighbours: pairs, then quads, then the eight digits.
    v = (v.wrapping_mul(10 << 8 | 1)) >> 8 & 0x00ff_00ff_00ff_00ff;
    v = (v.wrapping_mul(100 << 16 | 1)) >> 16 & 0x0000_ffff_0000_ffff;
    v.wrapping_mul(10_000 << 32 | 1) >> 32
}

/// Parses one number starting at `buf[i]` (a digit); returns it and the index after it. The
/// caller guarantees a non-digit somewhere after the number and eight readable bytes past it.
#[inline]
fn parse_at(buf: &[u8], mut i: usize) -> (u64, usize) {
    let mut v = 0u64;
    while let Some(w) = buf.get(i..i + 8) {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        if !eight_digits(w) {
            break;
        }
        v = v.wrapping_mul(100_000_000).wrapping_add(eight_value(w));
        i += 8;
    }
    while let Some(&c) = buf.get(i) {
        if !c.is_ascii_digit() {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add((c - b'0') as u64);
        i += 1;
    }
    (v, i)
}

const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends `v` in decimal and a newline.
#[inline]
fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 21];
    let mut n = 20;
    buf[20] = b'\n';
    while v >= 100 {
        let d = (v % 100) as usize * 2;
        v /= 100;
        n -= 2;
        buf[n] = PAIRS[d];
        buf[n + 1] = PAIRS[d + 1];
    }
    if v >= 10 {
        n -= 2;
        buf[n] = PAIRS[v as usize * 2];
        buf[n + 1] = PAIRS[v as usize * 2 + 1];
    } else {
        n -= 1;
        buf[n] = b'0' + v as u8;
    }
    out.extend_from_slice(&buf[n..]);
}

fn main() -> io::Result<()> {
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    // buf[..len] holds unread input; numbers are taken only when a non-digit follows them in
    // the buffer (or the input has ended), so none is split across chunks.
    let mut buf = vec![0u8; CHUNK + 64];
    let mut len = 0;
    let mut eof = false;
    let mut pending: Option<u64> = None; // first operand of the current pair
    let mut remaining: Option<u64> = None; // products still to print (None before T)
    let mut out = Vec::with_capacity(CHUNK * 2);
    while !eof || len > 0 {
        if !eof && len < CHUNK {
            let r = stdin.read(&mut buf[len..CHUNK])?;
            if r == 0 {
                eof = true;
            }
            len += r;
        }
        // The last complete number ends before the last non-digit (or at the end of input).
        let mut limit = if eof {
            len
        } else {
            buf[..len]
                .iter()
                .rposition(|c| !c.is_ascii_digit())
                .unwrap_or(0)
        };
        if limit == 0 && len >= CHUNK {
            // A run of digits longer than a chunk is not valid input; cut it anywhere.
            limit = len;
        }
        // Padding so that eight-byte reads past `limit` stay in bounds and see a non-digit.
        let saved: Vec<u8> = buf[limit..limit + 9].to_vec();
        buf[limit..limit + 9].fill(b' ');
        let mut i = 0;
        while i < limit {
            if !buf[i].is_ascii_digit() {
                i += 1;
                continue;
            }
            let (v, j) = parse_at(&buf[..limit + 9], i);
            i = j;
            match (remaining, pending) {
                (None, _) => remaining = Some(v),
                (Some(0), _) => {}
                (Some(_), None) => pending = Some(v),
                (Some(r), Some(a)) => {
                    push_u64(&mut out, mul64(a, v));
                    pending = None;
                    remaining = Some(r - 1);
                }
            }
        }
        buf[limit..limit + 9].copy_from_slice(&saved);
        buf.copy_within(limit..len, 0);
        len -= limit;
        if eof {
            len = 0;
        }
        if out.len() >= CHUNK {
            stdout.write_all(&out)?;
            out.clear();
        }
    }
    stdout.write_all(&out)
}
