"""Finding what a question needs: the level-aware light stage (:mod:`.search`), the regions
a detail question drills into (:mod:`.locate`), the drill-down into what summaries cover
(:mod:`.drilldown`) and the final stage's rerank."""
