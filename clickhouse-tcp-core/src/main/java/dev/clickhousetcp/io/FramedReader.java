package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;

/**
 * A {@link BinaryReader} over a {@link CompressedInputStream}: reads the decompressed bytes of
 * compressed frames with the usual primitives, and can tell whether a body ended exactly at a frame
 * end (ClickHouse flushes its compressed writer at the end of every block, so a correctly decoded
 * block leaves no decompressed byte behind; anything else means the decoder and the stream
 * disagree). The frame source can be rebound between bodies, so one instance serves a connection
 * for its lifetime and its buffers are reused. Not thread-safe.
 */
public final class FramedReader {
    private final CompressedInputStream frames;
    private final BinaryReader reader;

    /**
     * @param source         where frames are read from
     * @param bufferSize     the reader's buffer size in bytes
     * @param maxStringBytes largest string accepted by the reader
     * @param maxFrameBytes  largest decompressed frame accepted
     */
    public FramedReader(CompressedInputStream.Source source, int bufferSize, int maxStringBytes, int maxFrameBytes) {
        this.frames = new CompressedInputStream(source, maxFrameBytes);
        this.reader = new BinaryReader(frames, bufferSize, maxStringBytes);
    }

    /**
     * The reader of decompressed bytes.
     *
     * @return the same reader for this instance's whole life
     */
    public BinaryReader reader() {
        return reader;
    }

    /**
     * The frame stream (statistics).
     *
     * @return the stream the reader decompresses from; read it only through {@link #reader()}
     */
    public CompressedInputStream frames() {
        return frames;
    }

    /**
     * Whether every decompressed byte of the frames read so far has been consumed by {@link #reader()}.
     *
     * @return {@code true} at a frame end with nothing left in the reader's buffer
     */
    public boolean atFrameEnd() {
        return frames.atFrameEnd() && reader.bytesRead() == frames.decompressedBytesRead();
    }

    /**
     * Throws unless the body just read ended at a frame end.
     *
     * @param what names the body in the message
     * @throws ClickHouseProtocolException when decompressed bytes are left over
     */
    public void checkFrameEnd(String what) {
        if (!atFrameEnd()) {
            long left = frames.decompressedBytesRead() - reader.bytesRead();
            throw new ClickHouseProtocolException(what + " ended " + left
                    + " bytes before the end of its compressed frame: the decoded body does not match the stream");
        }
    }

    /**
     * Reads frames from {@code source} from now on.
     *
     * @param source where the next frames are read from (e.g. the connection's reader, or a detached column's
     *               bytes)
     * @throws IllegalStateException when bytes of the previous source are still unread
     */
    public void source(CompressedInputStream.Source source) {
        if (!atFrameEnd()) {
            throw new IllegalStateException("bytes of a compressed frame are still unread");
        }
        frames.source(source);
    }
}
