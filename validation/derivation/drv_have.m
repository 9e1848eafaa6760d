function ok = drv_have (name)
  % ok = drv_have (name): true when the public function NAME is on the path
  % and its compiled gateway answers a tiny call.
  ok = false;
  if (~ exist (name))
    return;
  end
  try
    q = ones (2, 1);
    if (strncmp (name, 'kda', 3))
      g = -ones (2, 1);
    else
      g = -1;
    end
    if (numel (name) > 4 && strcmp (name(end-3:end), '_bwd'))
      feval (name, q, q, 1, g, 0.5, 1, []);
    else
      feval (name, q, q, 1, g, 0.5);
    end
    ok = true;
  catch
    ok = false;
  end
end
