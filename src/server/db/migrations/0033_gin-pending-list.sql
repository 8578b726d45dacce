-- The search index's pending list: new rows wait there until an insert finds it full and merges it
-- into the index, holding that insert (and every initiation batched with it) meanwhile. At 256 kB
-- instead of the default 4 MB, each merge is short; set in place, no rebuild.
ALTER INDEX "transfer_requests_search_idx" SET (gin_pending_list_limit = 256);
