% kdagdn: linear attention with a delta rule (KDA and GDN).
%
% Forward
%   kda_recurrent      - Kimi Delta Attention, recurrent form.
%   kda_chunk          - Kimi Delta Attention, chunked form.
%   gdn_recurrent      - Gated DeltaNet, recurrent form.
%   gdn_chunk          - Gated DeltaNet, chunked form.
%
% Backward
%   kda_recurrent_bwd  - Kimi Delta Attention, gradients of the recurrent form.
%   kda_chunk_bwd      - Kimi Delta Attention, gradients of the chunked form.
%   gdn_recurrent_bwd  - Gated DeltaNet, gradients of the recurrent form.
%   gdn_chunk_bwd      - Gated DeltaNet, gradients of the chunked form.
%
% Library
%   kdagdn             - Kimi Delta Attention and Gated DeltaNet for Octave and MATLAB.
%   kdagdn_version     - Version of the kdagdn library, as a string.
