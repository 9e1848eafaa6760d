% HZ_EXP_BUGS  Hazard 4: two classic kernel bugs, reproduced, and their
% error patterns.
%
%   [rows, R] = hz_exp_bugs (mode, figdir)
%
%   KDA, K = V = 16, chunks of C = 16, T = 4 C (full: 8 C), four heads with
%   gate strengths 0.03, 0.1, 0.3, 1 (g = -s rand), with and without an
%   initial state; hz_chunk_fwd with bug 'log2_exp', 'ln_exp2' and
%   'regate_vnew' against ref_forward.  R.E.(bug) is T x heads: the error of
%   o at every step, norm (o_t - ref_t) / rms (ref); R.Serr.(bug): the state
%   ratio per head; R.verdict.(bug): what hazard_signature says.  Plot:
%   figdir/hazards_bugs.png (per-step error; error over step-in-chunk and head).
%
%   See also: hz_chunk_fwd, hazard_signature, lab_hazards.

function [rows, R] = hz_exp_bugs (mode, figdir)
  K = 16;  R.C = 16;
  T = R.C * 4;
  if (~strcmp (mode, 'quick'))
    T = R.C * 8;
  end
  R.strengths = [0.03 0.1 0.3 1];
  R.bugs = {'log2_exp', 'ln_exp2', 'regate_vnew'};
  rows = lab_row ();
  for s0 = [0 1]
    for ib = 1:numel (R.bugs)
      bug = R.bugs{ib};
      [E, Serr] = run_bug (bug, K, T, R.C, R.strengths, s0);
      [verdict, why] = hazard_signature (E, R.C, max (Serr));
      want = strrep (bug, 'ln_exp2', 'log2_exp');
      tag = sprintf ('%s, S0 %s', bug, pick (s0 == 0, 'zero', 'random'));
      rows(end + 1) = lab_row ('hazards', ['bug ' tag ': worst error of o'], max (E(:)), 1e-2, 'kind', 'atleast');
      rows(end + 1) = lab_row ('hazards', ['bug ' tag ': error of o in the first chunk'], max (max (E(1:R.C, :))), NaN, 'reported');
      rows(end + 1) = lab_row ('hazards', ['bug ' tag ': ratio of the final state'], max (Serr), NaN, 'reported');
      rows(end + 1) = lab_row ('hazards', ['bug ' tag ': hazard_signature names it (1 = yes)'], ...
                               double (strcmp (verdict, want)), 1, 'kind', 'atleast');
      rows(end).detail = [verdict ': ' why];
      if (s0 == 1)
        R.E.(bug) = E;  R.Serr.(bug) = Serr;  R.verdict.(bug) = verdict;
      end
    end
  end
  [E, Serr] = run_bug ('none', K, T, R.C, R.strengths, 1);
  rows(end + 1) = lab_row ('hazards', 'bug none (correct kernel): worst error of o', max (E(:)), 1e-12);
  rows(end + 1) = lab_row ('hazards', 'bug none: hazard_signature says none (1 = yes)', ...
                           double (strcmp (hazard_signature (E, R.C, max (Serr)), 'none')), 1, 'kind', 'atleast');
  if (~isempty (figdir))
    plot_bugs (R, fullfile (figdir, 'hazards_bugs.png'));
  end
end

function [E, Serr] = run_bug (bug, K, T, C, strengths, s0)
  E = zeros (T, numel (strengths));
  Serr = zeros (1, numel (strengths));
  for h = 1:numel (strengths)
    P = hz_problem (K, K, T, strengths(h), 1, 1);
    S0 = s0 * P.S0;
    [oref, Sref] = ref_forward ('kda', P.q, P.k, P.v, P.g, P.beta, 'InitialState', S0);
    [o, S] = hz_chunk_fwd (P.q, P.k, P.v, P.g, P.beta, S0, C, struct ('bug', bug));
    E(:, h) = sqrt (sum ((o - oref) .^ 2, 1))' / sqrt (mean (oref(:) .^ 2));
    Serr(h) = la_ratio (Sref, S);
  end
end


function plot_bugs (R, file)
  h = figure ('visible', 'off', 'position', [0 0 1200 700]);
  nb = numel (R.bugs);
  for ib = 1:nb
    E = R.E.(R.bugs{ib});
    subplot (2, nb, ib);
    semilogy (max (E, 1e-17), 'linewidth', 1.1);
    hold on;
    for t = R.C:R.C:size (E, 1) - 1
      semilogy ([t t] + 0.5, [1e-17 1e2], 'k:');
    end
    hold off;  grid on;  ylim ([1e-4 1e1]);
    xlabel ('step t (dotted: chunk ends)');  ylabel ('|o_t - ref_t| / rms(ref)');
    title (sprintf ('%s (state ratio %.2g)', R.bugs{ib}, max (R.Serr.(R.bugs{ib}))), ...
           'interpreter', 'none');
    if (ib == 1)
      legend (arrayfun (@(s) sprintf ('head g=-%g rand', s), R.strengths, 'UniformOutput', false), ...
              'location', 'southeast');
    end
    subplot (2, nb, nb + ib);
    Ec = reshape (E(R.C + 1:end, :), R.C, [], size (E, 2));   % chunks 2..: pos x chunk x head
    imagesc (log10 (squeeze (mean (Ec, 2)))');
    colorbar;  caxis ([-3 0.5]);
    xlabel ('step in chunk (chunks 2.., mean)');  ylabel ('head (gate strength up)');
    title ('log10 error of o');
  end
  print (h, '-dpng', '-r80', file);
  close (h);
end
