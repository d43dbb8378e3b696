package dev.clickhousetcp.jdbc.springdata;

import java.util.UUID;
import org.springframework.data.repository.CrudRepository;

/** Repository of {@link PresetIdEvent}. */
public interface PresetIdEventRepository extends CrudRepository<PresetIdEvent, UUID> {
}
