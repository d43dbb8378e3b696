package dev.clickhousetcp.data;

/**
 * The states of a composite type's children, in the order the type reads their prefixes (a Tuple's
 * elements, a Map's key then value), as ClickHouse's {@code DeserializeBinaryBulkStateTuple} holds them.
 */
record ChildStates(DeserializationState[] children) implements DeserializationState {
    /**
     * The state of a composite whose children have {@code states}: {@link DeserializationState#NONE} when
     * every child's is, so stateless composites allocate nothing per column.
     */
    static DeserializationState of(DeserializationState[] states) {
        for (DeserializationState s : states) {
            if (s != DeserializationState.NONE) {
                return new ChildStates(states);
            }
        }
        return DeserializationState.NONE;
    }

    /**
     * Child {@code index}'s state within {@code state}, read by {@code owner}'s prefix for {@code count}
     * children; {@link DeserializationState#NONE} for every child of {@code NONE}.
     *
     * @throws IllegalArgumentException when {@code state} was not read by a type of {@code owner}'s shape
     */
    static DeserializationState child(DeserializationState state, int index, int count, DataType owner) {
        if (state == DeserializationState.NONE) {
            return DeserializationState.NONE;
        }
        if (state instanceof ChildStates c && c.children.length == count) {
            return c.children[index];
        }
        throw DataType.foreignState(owner, state);
    }
}
