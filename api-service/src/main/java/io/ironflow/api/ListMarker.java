package io.ironflow.api;

import io.ironflow.api.errors.ApiError;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;

/**
 * A list's {@code marker} as Ironic takes it: an item that is not there (deleted since the client's previous page)
 * is 404, never an empty page that the CLI, openstacksdk and gophercloud would take for the end of the list.
 * Asked only when a page comes back empty, since a page read after a marker proves the marker is there.
 */
public final class ListMarker {

    private ListMarker() {
    }

    /**
     * {@code page}, read after {@code marker} (null: none), once the marker is known to be a row of {@code table}
     * whose {@code column} it is; else 404 with {@code notFound}, Ironic's message for the missing item.
     */
    public static <T> Uni<List<T>> found(Pool client, List<T> page, UUID marker, String table, String column, String notFound) {
        if (marker == null || !page.isEmpty()) {
            return Uni.createFrom().item(page);
        }
        return client.preparedQuery("SELECT 1 FROM " + table + " WHERE " + column + " = $1").execute(Tuple.of(marker))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw ApiError.notFound(notFound);
                    }
                    return page;
                });
    }
}
