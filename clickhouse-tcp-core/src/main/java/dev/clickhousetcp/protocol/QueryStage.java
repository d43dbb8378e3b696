package dev.clickhousetcp.protocol;

/** Query processing stage sent in the Query packet ({@code QueryProcessingStage::Enum}). */
public enum QueryStage {
    /** Stop after reading the columns, before any processing (code 0). */
    FETCH_COLUMNS(0),
    /** Stop at a state the initiator of a distributed query can merge, e.g. partial aggregates (code 1). */
    WITH_MERGEABLE_STATE(1),
    /** Process the query completely; the stage of every ordinary query (code 2). */
    COMPLETE(2);

    private final int code;

    QueryStage(int code) {
        this.code = code;
    }

    /**
     * The stage's wire code.
     *
     * @return the {@code QueryProcessingStage::Enum} value written as VarUInt in the Query packet
     */
    public int code() {
        return code;
    }
}
