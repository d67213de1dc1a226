"""The data model: items, the validated hierarchy (:class:`Memory`), messages read into items,
times, sentences, and the artifacts' JSON I/O. Everything else in the memory reads this."""
