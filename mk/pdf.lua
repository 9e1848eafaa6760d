-- Pandoc filter of `make pdf` (mk/pdf.mk): turns the Markdown pages of docs/
-- into one report with live cross-references.
--
--  * equations: a display equation with \tag{X} gets \label{eq:X}, and every
--    "(X)" in the text whose X is such a tag becomes a link to it; the tag is
--    the label, so "(31)" in the Markdown is "(31)" in the PDF, and "(H5)",
--    "(SM4)", "(2b)" likewise;
--  * pages: each input file has one level-1 heading; a link to "page.md"
--    goes to that heading (a link whose text is the file name reads as the
--    page's title, in italics), "page.md#anchor" to the anchor; a link to a file
--    that is not in the report becomes plain text (no dead links);
--  * sections: the pages number their level-2 headings "N. Title"; the
--    number is dropped (LaTeX numbers the sections), and "section N" in the
--    text becomes a link to section N of the page named just before it (a
--    link to page.md) or of the current page;
--  * figure references: a link [Figure](#fig:x) to the figure
--    ![...](...){#fig:x} reads "Figure N" with LaTeX's number N; the build
--    stops if a figure has no label, is never referenced, or a reference
--    names no figure;
--  * figures: "figures/NAME.png" is replaced by the vector NAME.pdf drawn by
--    make pdf, when it exists in $PDF_FIGURES; other images are found from
--    $PDF_DOCS_DIR (the pages' folder), since LaTeX runs in the build folder;
--  * tables: column widths follow the length of their contents; rows of the
--    index of pages that name a page outside the report are dropped;
--  * notebook outputs: a code block between the HTML comments
--    <!-- notebook-output PATH "TEXT" [N] --> and <!-- /notebook-output -->
--    is a copy of a notebook's committed output: the output of the notebook
--    PATH (from the repository's root) that contains TEXT, from the line
--    holding TEXT on, N lines (all if N is absent).  The PDF shows the
--    notebook's own lines, and the build stops if the copy in the page
--    differs from them (so a table of the page cannot drift from the
--    notebook it quotes);
--  * the first page (docs/README.md) is titled "Introduction".

local figdir = os.getenv("PDF_FIGURES") or ""
local docsdir = os.getenv("PDF_DOCS_DIR") or "docs"

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

local function basename(path)
  return (path:gsub("^.*/", ""))
end

-- ---- pass 1: pages, sections, equation tags --------------------------------
local page_of_file = {}     -- "recurrence.md" -> identifier of its H1
local page_number = {}      -- H1 identifier -> 1, 2, ...
local section_id = {}       -- H1 identifier -> {[n] = identifier of "n. ..."}
local tags = {}             -- "28" -> true
local page_title = {}       -- H1 identifier -> its title (inlines)

local function collect(doc)
  local files = {}
  for _, f in ipairs(PANDOC_STATE.input_files) do
    if f:match("%.md$") then files[#files + 1] = f end
  end
  local h1 = 0
  local page
  for _, blk in ipairs(doc.blocks) do
    if blk.t == "Header" and blk.level == 1 then
      h1 = h1 + 1
      page = blk.identifier
      page_number[page] = h1
      section_id[page] = {}
      page_title[page] = (h1 == 1) and pandoc.List({pandoc.Str("Introduction")}) or blk.content
      if files[h1] then page_of_file[basename(files[h1])] = page end
    elseif blk.t == "Header" and blk.level == 2 and page then
      local n = pandoc.utils.stringify(blk.content):match("^(%d+)%.%s")
      if n then section_id[page][n] = blk.identifier end
    end
  end
  if h1 ~= #files then
    error(string.format("pdf.lua: %d input files but %d level-1 headings", #files, h1))
  end
  doc:walk({
    Math = function(m)
      if m.mathtype == "DisplayMath" then
        for t in m.text:gmatch("\\tag{([^}]*)}") do tags[t] = true end
      end
    end
  })
  -- every figure (an image alone in its paragraph) has a label fig:NAME and
  -- at least one [Figure](#fig:NAME) in the text
  local figs, refs, unlabelled = {}, {}, {}
  doc:walk({
    Para = function(p)
      if #p.content == 1 and p.content[1].t == "Image" then
        local id = p.content[1].identifier
        if id:match("^fig:") then figs[id] = true
        else unlabelled[#unlabelled + 1] = p.content[1].src end
      end
    end,
    Link = function(l)
      local id = l.target:match("^#(fig:.+)$")
      if id then refs[id] = true end
    end
  })
  local bad = {}
  for _, src in ipairs(unlabelled) do bad[#bad + 1] = "no {#fig:...} label: " .. src end
  for id in pairs(figs) do
    if not refs[id] then bad[#bad + 1] = "never referenced: " .. id end
  end
  for id in pairs(refs) do
    if not figs[id] then bad[#bad + 1] = "reference to no figure: " .. id end
  end
  if #bad > 0 then
    table.sort(bad)
    error("pdf.lua: figures must be labelled and referenced:\n  " .. table.concat(bad, "\n  "))
  end
end

-- ---- notebook outputs ------------------------------------------------------
local notebooks = {}        -- PATH -> list of the texts of its output blocks

local function notebook_outputs(path)
  if notebooks[path] then return notebooks[path] end
  local f = io.open(docsdir .. "/../" .. path, "r")
  if not f then error("pdf.lua: notebook " .. path .. " not found") end
  local doc = pandoc.read(f:read("a"), "ipynb")
  f:close()
  local outs = {}
  doc:walk({Div = function(d)
    if d.classes:includes("output") then
      pandoc.walk_block(d, {CodeBlock = function(cb) outs[#outs + 1] = cb.text end})
    end
  end})
  notebooks[path] = outs
  return outs
end

local function trim_lines(t)
  return (t:gsub("[ \t]+\n", "\n"):gsub("%s+$", ""))
end

-- the lines of PATH's output that the marker names
local function notebook_excerpt(path, text, n)
  for _, out in ipairs(notebook_outputs(path)) do
    local at = out:find(text, 1, true)
    if at then
      local start = out:sub(1, at):match(".*\n()") or 1
      local lines, k = {}, 0
      for line in (out:sub(start) .. "\n"):gmatch("(.-)\n") do
        k = k + 1
        if n and k > n then break end
        lines[#lines + 1] = line
      end
      return trim_lines(table.concat(lines, "\n"))
    end
  end
  error("pdf.lua: no output of " .. path .. " contains \"" .. text .. "\"")
end

-- ---- pass 2 -----------------------------------------------------------------
local current_page

local function eq_link(x)
  return pandoc.RawInline("latex", "\\hyperref[eq:" .. x .. "]{(" .. x .. ")}")
end

-- "(31)," -> {link (31), Str ","}; "(1)-(20)" -> two links and "-"
local function split_eqrefs(s)
  local out, pos = {}, 1
  for a, x, b in s:gmatch("()%(([%w]+)%)()") do
    if tags[x] then
      if a > pos then out[#out + 1] = pandoc.Str(s:sub(pos, a - 1)) end
      out[#out + 1] = eq_link(x)
      pos = b
    end
  end
  if pos == 1 then return nil end
  if pos <= #s then out[#out + 1] = pandoc.Str(s:sub(pos)) end
  return out
end

-- target page of a link, or nil if it is not a page of the report
local function link_page(target)
  local file, anchor = target:match("^([^#]*%.md)#?(.*)$")
  if not file then return nil end
  local page = page_of_file[basename(file)]
  if not page or file:match("^%.%./") then return nil end
  return page, anchor
end

local function fix_link(l)
  local t = l.target
  local fig = t:match("^#(fig:[%w%-_]+)$")
  if fig then    -- [Figure](#fig:x): "Figure N", N the number LaTeX gives it
    return pandoc.RawInline("latex", "\\hyperref[" .. fig .. "]{" ..
      pandoc.utils.stringify(l.content) .. "~\\ref*{" .. fig .. "}}")
  end
  if t:match("^%a+://") or t:match("^mailto:") then return l end
  if t:match("^#") then return l end
  local page, anchor = link_page(t)
  if page then
    l.target = "#" .. ((anchor ~= "" and anchor) or page)
    -- a link that reads as the file name reads as the page's title
    local text = pandoc.utils.stringify(l.content)
    local file = t:match("^([^#]*)")
    if anchor == "" and (text == file or text == basename(file)) then
      l.content = pandoc.List({pandoc.Emph(page_title[page])})
    end
    return l
  end
  -- not in the report: keep the words, name the file once
  local text = pandoc.utils.stringify(l.content)
  local path = t:gsub("^%.%./", ""):gsub("^%./", "")
  if not t:match("^%.%./") and not t:match("/") then path = "docs/" .. path end
  local file = path:gsub("#.*$", "")
  if text == path or text == basename(path) or text:find(path, 1, true)
     or text == file or text == basename(file) then
    return l.content
  end
  local out = pandoc.List(l.content)
  out:insert(pandoc.Str(" ("))
  out:insert(pandoc.Code(path))
  out:insert(pandoc.Str(")"))
  return out
end

-- "section 5" / "sections 3-6" after a page link or in the current page
local function fix_sections(inlines)
  local out = pandoc.List()
  local last_page, last_page_at = nil, -10
  local i = 1
  while i <= #inlines do
    local el = inlines[i]
    if el.t == "Link" then
      local p = link_page(el.target)
      if p then last_page, last_page_at = p, #out + 1 end
    end
    if el.t == "Str" and el.text:match("^%(?[Ss]ections?$")
        and inlines[i + 1] and inlines[i + 1].t == "Space"
        and inlines[i + 2] and inlines[i + 2].t == "Str" then
      local num, rest = inlines[i + 2].text:match("^(%d+)(.*)$")
      local page = (#out + 1 - last_page_at <= 4) and last_page or current_page
      local id = num and page and section_id[page] and section_id[page][num]
      if id and not rest:match("^%d") and not rest:match("^%.%d") then
        out:insert(el)
        out:insert(inlines[i + 1])
        local label = tostring(page_number[page]) .. "." .. num
        out:insert(pandoc.Link(label, "#" .. id))
        -- "3-6": the second number of a range, same page
        local a, n2, b = rest:match("^(%-)(%d+)(.*)$")
        if n2 and section_id[page][n2] then
          out:insert(pandoc.Str("-"))
          out:insert(pandoc.Link(tostring(page_number[page]) .. "." .. n2, "#" .. section_id[page][n2]))
          rest = b
        end
        if rest ~= "" then out:insert(pandoc.Str(rest)) end
        i = i + 3
        goto continue
      end
    end
    out:insert(el)
    i = i + 1
    ::continue::
  end
  return out
end

-- inline code that may break after _ / , . ( (long identifiers in tables)
local tex_special = {["\\"] = "\\textbackslash{}", ["{"] = "\\{", ["}"] = "\\}",
  ["#"] = "\\#", ["$"] = "\\$", ["%"] = "\\%", ["&"] = "\\&",
  ["~"] = "\\textasciitilde{}", ["^"] = "\\textasciicircum{}", ["_"] = "\\_",
  ["'"] = "\\textquotesingle{}", ["<"] = "\\textless{}", [">"] = "\\textgreater{}",
  ["-"] = "-{}"}
local function breakable_code(c)
  local t = c.text:gsub("[\\{}#$%%&~^_'<>%-]", tex_special)
  t = t:gsub("(\\_)", "%1\\allowbreak{}"):gsub("([/,.(=])", "%1\\allowbreak{}")
  return pandoc.RawInline("latex", "\\texttt{" .. t .. "}")
end

local inline_filter = {
  Code = breakable_code,
  Str = function(s) return split_eqrefs(s.text) end,
  Link = fix_link,
  Image = function(img)
    local name = img.src:match("^figures/(.+)%.png$")
    if name and figdir ~= "" and file_exists(figdir .. "/" .. name .. ".pdf") then
      img.src = figdir .. "/" .. name .. ".pdf"
    elseif not img.src:match("^/") then
      img.src = docsdir .. "/" .. img.src     -- LaTeX runs elsewhere
    end
    return img
  end,
  Math = function(m)
    if m.mathtype == "DisplayMath" then
      local t = m.text:match("\\tag{([^}]*)}")
      if t then m.text = m.text:gsub("%s+$", "") .. " \\label{eq:" .. t .. "}" end
    end
    return m
  end,
}

-- longest piece of a cell that cannot break (code breaks after _ / , . ( =)
local function longest_word(cell)
  local m = 0
  pandoc.walk_block(pandoc.Div(cell.contents), {
    Str = function(x) if #x.text > m then m = #x.text end end,
    Code = function(x)
      for w in x.text:gsub("[_/,.(=]", "%0 "):gmatch("%S+") do
        if #w * 1.2 > m then m = #w * 1.2 end
      end
    end,
  })
  return m
end

-- column widths (fractions of the line, about 95 characters): each column
-- at least its longest unbreakable piece, the rest shared by length^0.7
local function widths(tbl)
  local n = #tbl.colspecs
  if n < 2 then return tbl end
  local len, word = {}, {}
  for c = 1, n do len[c], word[c] = 1, 1 end
  local function measure(rows)
    for _, row in ipairs(rows) do
      for c, cell in ipairs(row.cells) do
        if c <= n then
          len[c] = math.max(len[c], #pandoc.utils.stringify(cell.contents))
          word[c] = math.max(word[c], longest_word(cell))
        end
      end
    end
  end
  measure(tbl.head.rows)
  for _, body in ipairs(tbl.bodies) do measure(body.body) end
  local total = 0
  for c = 1, n do total = total + len[c] + 3 end
  if total < 95 then return tbl end   -- fits on one line: let LaTeX size it
  local line = 95
  local minw, sum_min, sum_extra, extra = {}, 0, 0, {}
  for c = 1, n do
    minw[c] = math.min(word[c] + 3, len[c] + 3) / line
    sum_min = sum_min + minw[c]
    extra[c] = math.max(0, len[c] + 3 - minw[c] * line) ^ 0.7
    sum_extra = sum_extra + extra[c]
  end
  local free = math.max(0, 0.96 - sum_min)
  for c = 1, n do
    local w = minw[c] + ((sum_extra > 0) and free * extra[c] / sum_extra or 0)
    tbl.colspecs[c] = {tbl.colspecs[c][1], w}
  end
  return tbl
end

-- rows of a table whose first cell is only a link to a page outside the
-- report (the index of docs/README.md lists every page) are dropped
function drop_outside_rows(tbl)
  for _, body in ipairs(tbl.bodies) do
    local keep = pandoc.List()
    for _, row in ipairs(body.body) do
      local first = row.cells[1] and row.cells[1].contents[1]
      local link = first and first.t == "Plain" and #first.content == 1
                   and first.content[1].t == "Link" and first.content[1]
      local t = link and link.target or ""
      if not (link and t:match("%.md$") and not t:match("/") and not link_page(t)) then
        keep:insert(row)
      end
    end
    body.body = keep
  end
  return tbl
end

function Pandoc(doc)
  collect(doc)
  local blocks = pandoc.List()
  local quoting             -- {path, text, n} inside a notebook-output block
  for _, blk in ipairs(doc.blocks) do
    local raw = blk.t == "RawBlock" and blk.format == "html" and blk.text or ""
    local path, text, n = raw:match('^<!%-%-%s*notebook%-output%s+(%S+)%s+"(.-)"%s*(%d*)%s*%-%->$')
    if path then
      quoting = {path = path, text = text, n = tonumber(n)}
    elseif raw:match("^<!%-%-%s*/notebook%-output%s*%-%->$") then
      quoting = nil
    elseif quoting then
      if blk.t == "CodeBlock" then
        local nb = notebook_excerpt(quoting.path, quoting.text, quoting.n)
        if trim_lines(blk.text) ~= nb then
          error("pdf.lua: the copy of " .. quoting.path .. "'s output \"" .. quoting.text ..
                "\" in the pages differs from the notebook's committed output:\n" .. nb)
        end
        blocks:insert(pandoc.CodeBlock(nb))
      else
        error("pdf.lua: only a code block may stand inside notebook-output")
      end
    elseif blk.t == "Header" then
      if blk.level == 1 then
        current_page = blk.identifier
        if page_number[current_page] == 1 then   -- docs/README.md opens the report
          blk.content = pandoc.List({pandoc.Str("Introduction")})
        end
      end
      if blk.level == 2 then
        local first = blk.content[1]
        if first and first.t == "Str" and first.text:match("^%d+%.$") then
          blk.content:remove(1)
          if blk.content[1] and blk.content[1].t == "Space" then blk.content:remove(1) end
        end
      end
      blocks:insert(pandoc.walk_block(blk, {Code = breakable_code}))
    elseif blk.t == "CodeBlock" then
      blocks:insert(blk)
    else
      if blk.t == "Table" then blk = widths(drop_outside_rows(blk)) end
      blk = pandoc.walk_block(blk, {Inlines = fix_sections})
      blk = pandoc.walk_block(blk, inline_filter)
      blocks:insert(blk)
    end
  end
  doc.blocks = blocks
  return doc
end
