-- Values the extension renders, made strict (issue 21): a colour becomes a CSS value and a favicon an
-- image the page fetches, so a value written before the API checked them (an imported
-- DATA-COLOR="url(//tracker.example/c.gif)", a favicon PATCHed to a data: or javascript: URL) is cleared
-- here rather than checked on every read. The colour names are lib/api/color.ts's COLOR_NAMES.
-- A cover image is not touched: only the server writes it, from its own storage.

UPDATE collections SET color = ''
WHERE color <> ''
  AND color !~* '^#([0-9a-f]{3}|[0-9a-f]{6})$'
  AND lower(color) NOT IN ('black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow',
    'olive', 'lime', 'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink');

UPDATE smart_folders SET color = ''
WHERE color <> ''
  AND color !~* '^#([0-9a-f]{3}|[0-9a-f]{6})$'
  AND lower(color) NOT IN ('black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow',
    'olive', 'lime', 'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink');

UPDATE tags SET color = NULL
WHERE color <> ''
  AND color !~* '^#([0-9a-f]{3}|[0-9a-f]{6})$'
  AND lower(color) NOT IN ('black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow',
    'olive', 'lime', 'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink');

UPDATE bookmarks SET favicon = ''
WHERE favicon <> '' AND favicon !~* '^https?://.';
