package dev.clickhousetcp.jdbc.springdata;

import java.util.UUID;
import org.springframework.data.repository.CrudRepository;
import org.springframework.data.repository.PagingAndSortingRepository;

/** Spring Data JDBC's derived CRUD and paging statements over {@link Event}. */
public interface EventRepository extends CrudRepository<Event, UUID>, PagingAndSortingRepository<Event, UUID> {
}
