-- An intent may name a node that is not a UUID (no node can have that id; the API never sends one, another
-- producer on the topic may). It is answered, 404 or 400, and recorded like any other, with no node: the column
-- was NOT NULL, so recording it failed, its failure answer failed the same way, and the intent was dead-lettered
-- while its client waited for an answer until its deadline.
ALTER TABLE processed_intents ALTER COLUMN node_uuid DROP NOT NULL;
