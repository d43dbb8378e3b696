package dev.clickhousetcp.jdbc.springdata;

import java.util.UUID;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Transient;
import org.springframework.data.domain.Persistable;
import org.springframework.data.relational.core.mapping.Table;

/**
 * An aggregate whose ID the application sets before {@code save}: {@link Persistable#isNew()} says it is new, so
 * Spring Data inserts it instead of updating a row that does not exist (table {@code preset_event}).
 */
@Table("preset_event")
public class PresetIdEvent implements Persistable<UUID> {
    @Id
    private UUID id;
    private String name;
    @Transient
    private boolean isNew;

    public PresetIdEvent() {
    }

    static PresetIdEvent create(UUID id, String name) {
        PresetIdEvent e = new PresetIdEvent();
        e.id = id;
        e.name = name;
        e.isNew = true;
        return e;
    }

    @Override
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

    @Override
    public boolean isNew() {
        return isNew;
    }
}
