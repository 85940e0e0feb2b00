//! Where a log writer's full buffers go: straight to a writer, or to a background
//! thread that writes one buffer while the search fills the next.

use std::io::{self, Write};
use std::mem;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::{Scope, ScopedJoinHandle};

/// A destination for buffers of output.
pub trait Chunks {
    /// What [`Chunks::close`] gives back.
    type Output;

    /// Takes `buffer[..len]` to be written, leaving in `buffer` one to fill next (of
    /// the same size). On an error `buffer` is still usable.
    fn submit(&mut self, buffer: &mut Box<[u8]>, len: usize) -> io::Result<()>;

    /// Waits until everything submitted is written, and returns the output.
    fn close(self) -> io::Result<Self::Output>;

    /// Whether a buffer waits, not yet begun, ahead of the last one submitted: the
    /// writer is not keeping up. A writer in the calling thread never is.
    fn behind(&mut self) -> bool {
        false
    }
}

/// Any writer takes buffers in the calling thread.
impl<W: Write> Chunks for W {
    type Output = W;

    fn submit(&mut self, buffer: &mut Box<[u8]>, len: usize) -> io::Result<()> {
        self.write_all(&buffer[..len])
    }

    fn close(mut self) -> io::Result<W> {
        self.flush()?;
        Ok(self)
    }
}

/// Buffers in use at most: one filling, one being written, up to three waiting.
/// A queue that deep tells a writer that falls behind from one merely busy
/// ([`Chunks::behind`]); a shallower one made the search format too much itself.
const POOL: usize = 5;

/// Writes buffers on a thread of `scope`, so that writing overlaps the search.
pub struct Background<'scope, W> {
    to_writer: SyncSender<(Box<[u8]>, usize)>,
    written: Receiver<Box<[u8]>>,
    /// Buffers written and given back, not yet reused.
    spares: Vec<Box<[u8]>>,
    /// Buffers made so far (the caller's first one included).
    made: usize,
    writer: ScopedJoinHandle<'scope, io::Result<W>>,
}

impl<'scope, W: Write + Send + 'scope> Background<'scope, W> {
    /// Starts the writing thread for `out`.
    pub fn start<'env>(scope: &'scope Scope<'scope, 'env>, mut out: W) -> Self {
        // The pool, not the channel, bounds the buffers waiting.
        let (to_writer, queued) = mpsc::sync_channel::<(Box<[u8]>, usize)>(POOL);
        let (give_back, written) = mpsc::channel();
        let writer = scope.spawn(move || {
            for (buffer, len) in queued {
                out.write_all(&buffer[..len])?;
                // The log writer may have finished and gone: nothing to give back to.
                let _ = give_back.send(buffer);
            }
            out.flush()?;
            Ok(out)
        });
        Background {
            to_writer,
            written,
            spares: Vec::new(),
            made: 1,
            writer,
        }
    }

    fn stopped() -> io::Error {
        io::Error::other("the output thread stopped")
    }

    /// Keeps the buffers the writer has given back since the last call.
    fn take_back_written(&mut self) {
        self.spares.extend(self.written.try_iter());
    }

    /// Buffers submitted and not yet given back: all but the caller's and the spares.
    fn in_flight(&self) -> usize {
        self.made - 1 - self.spares.len()
    }
}

impl<'scope, W: Write + Send + 'scope> Chunks for Background<'scope, W> {
    type Output = W;

    fn submit(&mut self, buffer: &mut Box<[u8]>, len: usize) -> io::Result<()> {
        self.take_back_written();
        let spare = match self.spares.pop() {
            Some(spare) => spare,
            None if self.made < POOL => {
                self.made += 1;
                vec![0; buffer.len()].into_boxed_slice()
            }
            None => self.written.recv().map_err(|_| Self::stopped())?,
        };
        let full = mem::replace(buffer, spare);
        self.to_writer
            .send((full, len))
            .map_err(|_| Self::stopped())
    }

    fn behind(&mut self) -> bool {
        self.take_back_written();
        // The last one submitted, the one being written, and one more.
        self.in_flight() > 2
    }

    fn close(self) -> io::Result<W> {
        drop(self.to_writer);
        self.writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails every write after the first `allowed` bytes.
    struct FailingWriter {
        allowed: usize,
    }

    impl Write for FailingWriter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if buf.len() > self.allowed {
                return Err(io::Error::other("disk full"));
            }
            self.allowed -= buf.len();
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn background_writes_every_buffer_in_order() {
        let out = std::thread::scope(|scope| {
            let mut chunks = Background::start(scope, Vec::new());
            let mut buffer = vec![0u8; 4].into_boxed_slice();
            for round in 0..20u8 {
                buffer.fill(round);
                chunks
                    .submit(&mut buffer, (round % 4) as usize + 1)
                    .unwrap();
            }
            chunks.close().unwrap()
        });
        let expected: Vec<u8> = (0..20u8)
            .flat_map(|round| std::iter::repeat_n(round, (round % 4) as usize + 1))
            .collect();
        assert_eq!(out, expected);
    }

    #[test]
    fn background_reports_the_write_error() {
        let error = std::thread::scope(|scope| {
            let mut chunks = Background::start(scope, FailingWriter { allowed: 10 });
            let mut buffer = vec![1u8; 8].into_boxed_slice();
            for _ in 0..10 {
                if chunks.submit(&mut buffer, 8).is_err() {
                    break;
                }
            }
            chunks.close().err().unwrap()
        });
        assert_eq!(error.to_string(), "disk full");
    }
}
