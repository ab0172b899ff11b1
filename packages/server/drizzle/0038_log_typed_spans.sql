-- An audit row's sentence is read in the viewer's script (docs/decisions.md "One script at a time"): its
-- fixed words converted, the names inside it as typed. `message` keeps the sentence as written (the
-- search column and its trigram index read it unchanged); `typed_spans` lists where its typed values lie,
-- as [start, end, start, end, …] UTF-16 offsets into `message`. Rows written before it have none (null):
-- they are shown as written. Adding a nullable column without a default is instant on any table size.
ALTER TABLE "audit_logs" ADD COLUMN "typed_spans" integer[];
