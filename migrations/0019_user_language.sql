-- The language a panel user picked for the panel (`en`, `de`, `ar`, ...). NULL: none picked, so
-- the panel follows the browser's Accept-Language, else the workspace's locale.
ALTER TABLE users ADD COLUMN language text;
