package dev.clickhousetcp.jdbc.springdata;

import java.util.UUID;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate with an optimistic-locking version (table {@code versioned_event}). */
@Table("versioned_event")
public class VersionedEvent {
    @Id
    private UUID id;
    @Version
    private Long version;
    private String name;

    public VersionedEvent() {
    }

    VersionedEvent(UUID id, String name) {
        this.id = id;
        this.name = name;
    }

    public UUID getId() {
        return id;
    }

    public void setId(UUID id) {
        this.id = id;
    }

    public Long getVersion() {
        return version;
    }

    public void setVersion(Long version) {
        this.version = version;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
