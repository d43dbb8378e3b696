package dev.clickhousetcp.jdbc.springdata;

import java.math.BigInteger;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate of table {@code event} (id UUID, name String, amount UInt64, at DateTime64(3), tags Array(String)). */
@Table("event")
public class Event {
    @Id
    private UUID id;
    private String name;
    private BigInteger amount;
    private LocalDateTime at;
    private List<String> tags;

    public Event() {
    }

    Event(String name, BigInteger amount, LocalDateTime at, List<String> tags) {
        this.name = name;
        this.amount = amount;
        this.at = at;
        this.tags = tags;
    }

    public UUID getId() {
        return id;
    }

    public void setId(UUID id) {
        this.id = id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public BigInteger getAmount() {
        return amount;
    }

    public void setAmount(BigInteger amount) {
        this.amount = amount;
    }

    public LocalDateTime getAt() {
        return at;
    }

    public void setAt(LocalDateTime at) {
        this.at = at;
    }

    public List<String> getTags() {
        return tags;
    }

    public void setTags(List<String> tags) {
        this.tags = tags;
    }
}
