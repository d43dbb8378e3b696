package dev.clickhousetcp.protocol;

/** Query processing stage sent in the Query packet ({@code QueryProcessingStage::Enum}). */
public enum QueryStage {
    FETCH_COLUMNS(0), WITH_MERGEABLE_STATE(1), COMPLETE(2);

    private final int code;

    QueryStage(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
