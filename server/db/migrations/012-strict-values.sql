-- Values the extension renders, made strict (issue 21): a colour becomes a CSS value and a favicon an
-- image the page fetches, so a value written before the API checked them (an imported
-- DATA-COLOR="url(//tracker.example/c.gif)", a favicon PATCHed to a data: or javascript: URL) is cleared
-- here rather than checked on every read. The colour names are lib/api/color.ts's COLOR_NAMES.
-- A cover image is not touched: only the server writes it, from its own storage.

UPDATE collections SET color = ''
WHERE color <> ''
  AND NOT (color GLOB '#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]'
    OR color GLOB '#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]'
    OR lower(color) IN ('black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow',
      'olive', 'lime', 'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink'));

UPDATE smart_folders SET color = ''
WHERE color <> ''
  AND NOT (color GLOB '#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]'
    OR color GLOB '#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]'
    OR lower(color) IN ('black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow',
      'olive', 'lime', 'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink'));

UPDATE tags SET color = NULL
WHERE color IS NOT NULL AND color <> ''
  AND NOT (color GLOB '#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]'
    OR color GLOB '#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]'
    OR lower(color) IN ('black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow',
      'olive', 'lime', 'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink'));

UPDATE bookmarks SET favicon = ''
WHERE favicon <> '' AND NOT (lower(favicon) GLOB 'http://?*' OR lower(favicon) GLOB 'https://?*');
