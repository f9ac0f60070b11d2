//! The language server's wire: LSP's `Content-Length` framing over standard input and output.
//!
//! `lsp-server` brings its own stdio transport, but its reader thread stops at the first
//! malformed message, and it allocates whatever `Content-Length` a peer announces. An editor
//! extension with a bug, or a person typing into the pipe, must not bring the server down, so
//! the reader here is tolerant: a frame whose header or body cannot be read is skipped, reported
//! to the editor as a log message, and the next frame is read. A frame longer than
//! [`MAX_FRAME`] is skipped without being held in memory. The connection itself is still
//! `lsp-server`'s [`Connection`], so the rest of the server speaks its types.

use std::io::{BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{bounded, Receiver, Sender};
use lsp_server::{Connection, Message, Notification};

/// The longest message body the server reads: a lesson is at most `max-lesson-bytes` (4 MiB by
/// default), and an edit of one carries at most a few times that in JSON escapes.
pub(crate) const MAX_FRAME: usize = 64 << 20;

/// The longest header line kept: a longer one (a peer sending megabytes without a line break)
/// is read to its end without being held, and the frame is skipped.
const MAX_HEADER_LINE: u64 = 8 << 10;

/// Reads one header line into `line`: `None` at the end of the input, `Some(true)` for a line
/// longer than [`MAX_HEADER_LINE`] (skipped to its end; `line` holds its start).
fn header_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    line.clear();
    let n = input
        .by_ref()
        .take(MAX_HEADER_LINE)
        .read_until(b'\n', line)?;
    if n == 0 {
        return Ok(None);
    }
    if line.ends_with(b"\n") || (n as u64) < MAX_HEADER_LINE {
        return Ok(Some(false));
    }
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(Some(true));
        }
        if let Some(i) = buffer.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(Some(true));
        }
        let all = buffer.len();
        input.consume(all);
    }
}

/// What the reader found in one frame.
enum Frame {
    /// A well-formed message.
    Message(Message),
    /// A frame that was skipped, and why.
    Skipped(String),
    /// The input is closed.
    End,
}

/// Reads one frame: headers up to an empty line, then `Content-Length` bytes of JSON.
fn read_frame(input: &mut impl BufRead) -> Frame {
    let mut length: Option<usize> = None;
    let mut bad_header = None;
    let mut line = Vec::new();
    loop {
        match header_line(input, &mut line) {
            Ok(None) | Err(_) => return Frame::End,
            Ok(Some(true)) => {
                bad_header = Some(format!("a header line longer than {MAX_HEADER_LINE} bytes"));
                continue;
            }
            Ok(Some(false)) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if length.is_some() || bad_header.is_some() {
                break;
            }
            // Blank lines between frames are tolerated.
            continue;
        }
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = Some(format!("bad Content-Length `{}`", value.trim())),
                }
            }
            Some(_) => {}
            None => bad_header = Some(format!("not a header: `{}`", shorten(text))),
        }
    }
    let Some(length) = length else {
        return Frame::Skipped(bad_header.unwrap_or_else(|| "no Content-Length".into()));
    };
    if length > MAX_FRAME {
        // Drain the body without keeping it.
        let skipped = std::io::copy(&mut input.take(length as u64), &mut std::io::sink());
        return match skipped {
            Ok(n) if n == length as u64 => Frame::Skipped(format!(
                "a message of {length} bytes is longer than the limit of {MAX_FRAME}"
            )),
            _ => Frame::End,
        };
    }
    let mut body = vec![0; length];
    if input.read_exact(&mut body).is_err() {
        return Frame::End;
    }
    match serde_json::from_slice::<Message>(&body) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Skipped(format!(
            "malformed message ({e}): `{}`",
            shorten(&String::from_utf8_lossy(&body))
        )),
    }
}

fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

/// A `window/logMessage` notification of an error.
pub(crate) fn log_error(message: String) -> Message {
    Message::Notification(Notification::new(
        "window/logMessage".into(),
        serde_json::json!({ "type": 1, "message": message }),
    ))
}

/// The threads behind a [`Connection`] over standard input and output.
pub(crate) struct Wire {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<()>,
}

impl Wire {
    /// Waits for both threads. The reader ends when standard input closes or after `exit`;
    /// the writer when every sender of the connection is gone.
    pub(crate) fn join(self) {
        let _ = self.reader.join();
        let _ = self.writer.join();
    }
}

/// A connection over any reader and writer (standard input and output for `nimbook lsp`, pipes
/// in the tests).
pub(crate) fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> std::io::Result<(Connection, Wire)> {
    let (to_writer, from_server): (Sender<Message>, Receiver<Message>) = bounded(64);
    let (to_server, from_reader) = bounded::<Message>(64);
    let log = to_writer.clone();
    let writer = thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            let mut output = output;
            for message in from_server {
                if message.write(&mut output).is_err() {
                    break;
                }
            }
        })?;
    let reader = thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let mut input = input;
            loop {
                match read_frame(&mut input) {
                    Frame::Message(message) => {
                        let exit =
                            matches!(&message, Message::Notification(n) if n.method == "exit");
                        if to_server.send(message).is_err() || exit {
                            break;
                        }
                    }
                    Frame::Skipped(why) => {
                        let _ = log.send(log_error(format!("nimbook lsp skipped {why}")));
                    }
                    Frame::End => break,
                }
            }
        })?;
    let connection = Connection {
        sender: to_writer,
        receiver: from_reader,
    };
    Ok((connection, Wire { reader, writer }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    fn frames(input: &str) -> Vec<String> {
        let mut input = std::io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            match read_frame(&mut input) {
                Frame::Message(Message::Notification(n)) => out.push(n.method),
                Frame::Message(_) => out.push("other".into()),
                Frame::Skipped(why) => out.push(format!("skipped: {why}")),
                Frame::End => return out,
            }
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn garbage_between_frames_is_skipped_and_reading_goes_on() {
        let good = frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        let input = format!(
            "{good}garbage line\r\n\r\n{}{}{good}",
            frame("{not json"),
            "Content-Length: 99999999999999\r\n\r\n"
        );
        let got = frames(&input);
        assert_eq!(got[0], "initialized");
        assert!(got[1].starts_with("skipped: not a header"), "{got:?}");
        assert!(got[2].starts_with("skipped: malformed message"), "{got:?}");
        // The huge frame has no body to drain: the input ends.
        assert_eq!(got.len(), 3, "{got:?}");
    }

    #[test]
    fn a_header_line_without_end_is_skipped_not_kept() {
        let good = frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        let input = format!("{}\r\n\r\n{good}", "x".repeat(1 << 20));
        let got = frames(&input);
        assert!(got[0].contains("longer than 8192 bytes"), "{got:?}");
        assert_eq!(got[1..], ["initialized"]);
    }

    /// A frame of a notification whose method is `method`.
    fn notification(method: &str) -> String {
        frame(&serde_json::json!({ "jsonrpc": "2.0", "method": method }).to_string())
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic_and_every_frame_ends(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)
        ) {
            let mut input = std::io::Cursor::new(bytes);
            let mut frames = 0;
            loop {
                let before = input.position();
                match read_frame(&mut input) {
                    Frame::End => break,
                    _ => proptest::prop_assert!(input.position() > before, "no progress"),
                }
                frames += 1;
            }
            proptest::prop_assert!(frames <= 600);
        }

        #[test]
        fn garbage_between_frames_never_loses_a_frame(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    "[a-z/]{1,12}".prop_map(|m| (true, m)),
                    // A line that is no header (no `:`), or a header that is not a length.
                    "[^:\r\n]{1,40}".prop_map(|g| (false, g)),
                    "X-[a-z]{1,5}: [^\r\n]{0,9}".prop_map(|g| (false, g)),
                ],
                0..20,
            )
        ) {
            let mut input = String::new();
            let mut expected = Vec::new();
            for (good, text) in &parts {
                if *good {
                    input.push_str(&notification(text));
                    expected.push(text.clone());
                } else {
                    input.push_str(&format!("{text}\r\n\r\n"));
                }
            }
            let got: Vec<String> = frames(&input)
                .into_iter()
                .filter(|f| !f.starts_with("skipped: "))
                .collect();
            proptest::prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn an_oversized_frame_is_drained_not_kept() {
        let body = "x".repeat(MAX_FRAME + 1);
        let good = frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        let input = format!("Content-Length: {}\r\n\r\n{body}{good}", body.len());
        let got = frames(&input);
        assert!(got[0].contains("longer than the limit"), "{got:?}");
        assert_eq!(got[1], "initialized");
    }
}
