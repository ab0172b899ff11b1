// Topics and comments of the generated database (bench/generate.mjs).
import { createIndexes, dropIndexes } from './indexes.mjs';
import { COMMENT_TEXTS, sqlArray, TOPIC_TEXTS } from './sizes.mjs';

/** Topics, their comments and the activities' comments; `per`: clusters per responsible firm (clustersAndActivities). */
export async function topicsAndComments(db, { S, done, second }, per) {
  // Topics on random clusters, given to the cluster's contractor firm or one of its teams.
  // The per-cluster counts (migration 0025) are recounted once after the bulk inserts: each insert's statement
  // trigger would count every cluster's rows without the indexes dropped here (60 s for the comments).
  await db.query('ALTER TABLE topics DISABLE TRIGGER topics_counted_ins');
  await db.query('ALTER TABLE activity_comments DISABLE TRIGGER activity_comments_counted_ins');
  const topicIndexes = await dropIndexes(db, 'topics');
  await db.query(
    `WITH t AS (SELECT ${sqlArray(TOPIC_TEXTS)} AS a),
          u AS (SELECT array_agg(id) AS a FROM (SELECT id FROM users WHERE group_id IS NOT NULL LIMIT 5000) x)
     INSERT INTO topics (cluster_id, opis, group_id, rok, prioritet, status, created_by, created_at, updated_at)
     SELECT c.id, t.a[1 + i % array_length(t.a, 1)] || ' (' || i || ')',
            (SELECT g.id FROM bench_groups g WHERE g.firm = 1 + (c.n - 1) / $2::int ORDER BY g.n OFFSET i % 10 LIMIT 1),
            CASE WHEN i % 4 = 0 THEN NULL ELSE now() + ((i % 90) - 30) * interval '1 day' END,
            (ARRAY['nizak', 'srednji', 'visok'])[1 + i % 3], CASE WHEN i % 5 = 0 THEN 'zatvoren' ELSE 'otvoren' END,
            u.a[1 + i % array_length(u.a, 1)], now() - i * interval '13 minutes', now() - i * interval '11 minutes'
     FROM generate_series(1, $1::int) i JOIN bench_clusters c ON c.n = 1 + (i * 7919) % $3::int, t, u`,
    [S.topics, per, S.clusters],
  );
  await createIndexes(db, second, topicIndexes);
  const commentIndexes = await dropIndexes(db, 'topic_comments');
  // Numbered copies (temp tables with a key), so the comments below join by number, not by a scan per row.
  await db.query(`CREATE TEMP TABLE bench_topics AS
    SELECT id, group_id, created_by, row_number() OVER (ORDER BY created_at)::int AS r FROM topics`);
  await db.query('ALTER TABLE bench_topics ADD PRIMARY KEY (r); ANALYZE bench_topics');
  await db.query(
    `WITH x AS (SELECT ${sqlArray(COMMENT_TEXTS)} AS a), n AS (SELECT count(*)::int AS n FROM bench_topics)
     INSERT INTO topic_comments (topic_id, tekst, created_by, group_id, created_at)
     SELECT tp.id, x.a[1 + i % array_length(x.a, 1)], tp.created_by, tp.group_id, now() - i * interval '1 minute'
     FROM generate_series(1, $1::int) i CROSS JOIN n CROSS JOIN x JOIN bench_topics tp ON tp.r = 1 + i % n.n`,
    [S.topicComments],
  );
  await createIndexes(db, second, commentIndexes);
  done(`${S.topics} topics, ${S.topicComments} topic comments`);

  const activityCommentIndexes = await dropIndexes(db, 'activity_comments');
  await db.query(`CREATE TEMP TABLE bench_started AS
    SELECT id, row_number() OVER (ORDER BY id)::int AS r FROM activities WHERE status <> 'Nije započeta'`);
  await db.query('ALTER TABLE bench_started ADD PRIMARY KEY (r); ANALYZE bench_started');
  await db.query(`CREATE TEMP TABLE bench_people AS
    SELECT id, row_number() OVER (ORDER BY id)::int AS r FROM users WHERE group_id IS NOT NULL LIMIT 5000`);
  await db.query('ALTER TABLE bench_people ADD PRIMARY KEY (r); ANALYZE bench_people');
  await db.query(
    `WITH x AS (SELECT ${sqlArray(COMMENT_TEXTS)} AS a), n AS (SELECT count(*)::int AS n FROM bench_started)
     INSERT INTO activity_comments (activity_id, komentar, user_id, created_at)
     SELECT a.id, x.a[1 + i % array_length(x.a, 1)] || ' #' || i, p.id, now() - i * interval '3 minutes'
     FROM generate_series(1, $1::int) i CROSS JOIN n CROSS JOIN x
     JOIN bench_started a ON a.r = 1 + (i * 7) % n.n JOIN bench_people p ON p.r = 1 + i % 5000`,
    [S.activityComments],
  );
  await createIndexes(db, second, activityCommentIndexes);
  await db.query('ALTER TABLE topics ENABLE TRIGGER topics_counted_ins');
  await db.query('ALTER TABLE activity_comments ENABLE TRIGGER activity_comments_counted_ins');
  await db.query('SELECT trasa_cluster_list_recount(array(SELECT id FROM clusters))');
  done(`${S.activityComments} activity comments`);
}
