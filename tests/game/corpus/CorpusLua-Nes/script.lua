-- Top-level code runs at every reset, after the custom variables were cleared: script state starts over.
data.prev_x = nil
data.best = 0
data.checked = false
data.unset = nil

function level_done()
  data.checked = true
  data.frames_seen = scenario.frame
  return data.lives == 0 or data.x >= 1000
end

function progress()
  local r = 0
  if data.prev_x ~= nil then
    r = (data.x - data.prev_x) / 2
  end
  data.prev_x = data.x
  if data.x > data.best then
    data.best = data.x
  end
  local bonus = data[0x43]          -- a raw byte
  if bonus > 0 then
    r = r + bonus
    data.bonus = 0                  -- a data.json variable: written to RAM
    data.score = data.score + bonus -- encoded as BCD
  end
  return r
end
