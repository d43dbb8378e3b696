package dev.clickhousetcp.jdbc.springdata;

import java.util.UUID;
import org.springframework.data.repository.CrudRepository;

/** Repository of {@link VersionedEvent}. */
public interface VersionedEventRepository extends CrudRepository<VersionedEvent, UUID> {
}
